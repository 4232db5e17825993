import type { ReactNode } from 'react';

interface Props {
  /** Names the panel in test ids ('grants'). */
  name: string;
  /** A page-unique element id for the panel's body (several sessions are mounted at once). */
  bodyId: string;
  title: string;
  collapsed: boolean;
  onToggle(): void;
  children: ReactNode;
}

/** A panel of the side column that folds to its header; the header is a button, so Enter or Space folds it too. */
export function SidePanel({ name, bodyId, title, collapsed, onToggle, children }: Props) {
  return (
    <section className="side-panel" aria-label={title} data-testid={`side-panel-${name}`} data-collapsed={collapsed ? 'true' : 'false'}>
      <button type="button" className="icon-button side-panel-toggle" aria-expanded={!collapsed} aria-controls={bodyId} data-testid={`side-panel-toggle-${name}`} onClick={onToggle}>
        {collapsed ? '▸' : '▾'} {title}
      </button>
      <div className="side-panel-body" id={bodyId} hidden={collapsed}>
        {children}
      </div>
    </section>
  );
}
