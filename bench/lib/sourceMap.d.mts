// Types for sourceMap.mjs, which the tests import.
export interface SourceMapV3 {
  sources: string[];
  mappings: string;
}
export function sourceAt(map: SourceMapV3): (line: number, column: number) => string | undefined;
