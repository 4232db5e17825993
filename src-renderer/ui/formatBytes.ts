const units = ['KiB', 'MiB', 'GiB', 'TiB'];

/** "0 B", "512 B", "1.5 KiB", "10 MiB": binary units, one decimal below ten, never more than the size is. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.max(0, Math.round(bytes))} B`;
  let value = bytes;
  let unit = -1;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  // Truncated, not rounded: 1023.96 KiB shows as "1023 KiB", never as "1024 KiB" in the smaller unit.
  const shown = value < 10 ? (Math.floor(value * 10) / 10).toFixed(1) : String(Math.floor(value));
  return `${shown.replace(/\.0$/, '')} ${units[unit]}`;
}
