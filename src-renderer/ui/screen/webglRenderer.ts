import { WebglAddon } from '@xterm/addon-webgl';
import type { Terminal } from '@xterm/xterm';

/** Set `localStorage['omni.terminal.renderer'] = 'dom'` to keep the DOM renderer (tests read its text rows). */
function domRendererForced(): boolean {
  try {
    return localStorage.getItem('omni.terminal.renderer') === 'dom';
  } catch {
    return false;
  }
}

/** What the page's GPU was found to be, once a context could be made: it does not change while the page lives. */
let hardwareWebgl2: boolean | undefined;

/**
 * True only for a hardware WebGL2 context. A software rasteriser (SwiftShader, llvmpipe: what headless or
 * GPU-less machines offer) makes the WebGL renderer several times slower than the DOM one, so it does not count.
 * Asked once per page: making and losing a context to ask cost each new terminal or run card tens of ms before its
 * first character (docs/performance.md#run-card). A context that could not be made (too many open) is asked again.
 */
function canCreateWebgl2(): boolean {
  if (hardwareWebgl2 !== undefined) return hardwareWebgl2;
  try {
    const context = document.createElement('canvas').getContext('webgl2');
    if (!context) return false;
    const info = context.getExtension('WEBGL_debug_renderer_info');
    const renderer = info ? String(context.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
    context.getExtension('WEBGL_lose_context')?.loseContext();
    hardwareWebgl2 = !/swiftshader|llvmpipe|softpipe|software/i.test(renderer);
    return hardwareWebgl2;
  } catch {
    return false;
  }
}

/**
 * Switches `term` (already opened) to the WebGL renderer when the GPU allows it. Any failure, now or later
 * (context loss: GPU reset, too many contexts), falls back to xterm's default DOM renderer.
 */
export function enableWebglRenderer(term: Terminal): { dispose(): void } {
  if (domRendererForced() || !canCreateWebgl2()) return { dispose() {} };
  let addon: WebglAddon | null = null;
  try {
    addon = new WebglAddon();
    addon.onContextLoss(() => {
      addon?.dispose();
      addon = null;
    });
    term.loadAddon(addon);
  } catch {
    addon?.dispose();
    addon = null;
  }
  return {
    dispose() {
      addon?.dispose();
      addon = null;
    },
  };
}
