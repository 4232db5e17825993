import './workspace.css';
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { LIMITS, pickSplitTab, resolveTabs, type WorkspaceLayout } from './layoutPrefs';
import type { LayoutChange } from './layoutStore';
import { Splitter } from './Splitter';

export interface DockTab {
  id: string;
  label: string;
  title?: string;
  content: ReactNode;
}

interface Props {
  /** Prefix for element ids: several sessions' docks are mounted at once. */
  idPrefix: string;
  tabs: readonly DockTab[];
  layout: WorkspaceLayout;
  update(change: LayoutChange): void;
  /** A tab that must be in front now (a terminal just opened or asked for focus), before the layout says so. */
  forcedTab: string | null;
  /** Buttons at the end of the tab bar (New terminal). */
  actions?: ReactNode;
  /** Shown in the tab bar when there is nothing but the runs (how to open a terminal). */
  hint?: ReactNode;
}

/**
 * The docked area under the conversation: one tab per terminal plus the runs list, one in front, or two side by
 * side when split. Every tab's content stays mounted (a terminal keeps its screen and stream while behind another);
 * the panes are only shown, hidden and ordered, never re-created.
 */
export function Dock({ idPrefix, tabs, layout, update, forcedTab, actions, hint }: Props) {
  const panesRef = useRef<HTMLDivElement>(null);
  const tabRefs = useRef(new Map<string, HTMLButtonElement>());
  const ids = tabs.map((tab) => tab.id);
  const resolved = resolveTabs(layout, ids);
  const active = forcedTab !== null && ids.includes(forcedTab) && forcedTab !== resolved.split ? forcedTab : resolved.active;
  const split = resolved.split;
  const paneId = (id: string): string => `${idPrefix}-pane-${id}`;
  const tabId = (id: string): string => `${idPrefix}-tab-${id}`;

  function choose(id: string): void {
    // Choosing the tab shown on the right swaps the halves rather than showing one tab twice.
    update(id === split ? { activeTab: id, splitTab: active } : { activeTab: id });
  }

  function onTabKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number): void {
    let next: number | null = null;
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    if (next === null) return;
    event.preventDefault();
    const target = tabs[next]!;
    choose(target.id);
    tabRefs.current.get(target.id)?.focus();
  }

  function toggleSplit(): void {
    if (split) update({ splitTab: null });
    else update({ activeTab: active, splitTab: pickSplitTab(active, ids) });
  }

  return (
    <section className="dock" aria-label="Terminals and runs" data-testid="dock">
      <div className="dock-bar">
        <div className="dock-tabs" role="tablist" aria-label="Terminals and runs">
          {tabs.map((tab, index) => {
            const front = tab.id === active;
            return (
              <button
                key={tab.id}
                ref={(element) => {
                  if (element) tabRefs.current.set(tab.id, element);
                  else tabRefs.current.delete(tab.id);
                }}
                type="button"
                role="tab"
                id={tabId(tab.id)}
                className="dock-tab"
                aria-selected={front}
                aria-controls={paneId(tab.id)}
                tabIndex={front ? 0 : -1}
                title={tab.title ?? tab.label}
                data-testid="dock-tab"
                data-tab-id={tab.id}
                data-split={tab.id === split ? 'true' : undefined}
                onClick={() => choose(tab.id)}
                onKeyDown={(event) => onTabKeyDown(event, index)}
              >
                {tab.label}
              </button>
            );
          })}
        </div>
        {hint}
        <div className="dock-actions">
          <button
            type="button"
            className="icon-button"
            data-testid="dock-split"
            aria-pressed={split !== null}
            disabled={split === null && tabs.length < 2}
            title={split ? 'Show one tab' : 'Show two tabs side by side'}
            onClick={toggleSplit}
          >
            {split ? 'Unsplit' : 'Split'}
          </button>
          {actions}
        </div>
      </div>
      <div className={`dock-panes${split ? ' dock-split' : ''}`} ref={panesRef}>
        {tabs.map((tab) => {
          const place = tab.id === active ? 'first' : tab.id === split ? 'second' : null;
          return (
            <div
              key={tab.id}
              role="tabpanel"
              id={paneId(tab.id)}
              aria-labelledby={tabId(tab.id)}
              className={`dock-pane dock-pane-${place ?? 'behind'}`}
              hidden={place === null}
              style={split && place === 'first' ? { flexBasis: `${layout.splitPercent}%` } : undefined}
              data-testid="dock-pane"
              data-tab-id={tab.id}
            >
              {tab.content}
            </div>
          );
        })}
        {split && (
          <Splitter
            label="Split between the two tabs"
            controls={paneId(active)}
            edge="left"
            value={layout.splitPercent}
            min={LIMITS.splitPercent.min}
            max={LIMITS.splitPercent.max}
            containerRef={panesRef}
            onChange={(splitPercent) => update({ splitPercent })}
            testId="dock-split-splitter"
          />
        )}
      </div>
    </section>
  );
}
