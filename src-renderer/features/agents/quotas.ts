/** "500m (0.5 CPU)" for millicores; null means the manifest declares no limit. */
export function formatCpu(millicores: number | null): string {
  if (millicores === null) return 'no limit declared';
  return `${millicores}m (${(millicores / 1000).toLocaleString(undefined, { maximumFractionDigits: 3 })} CPU)`;
}

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return 'no limit declared';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString(undefined, { maximumFractionDigits: 1 })} ${units[unit]}`;
}
