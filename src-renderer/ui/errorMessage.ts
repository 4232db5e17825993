/** The text to show for a failed call: the host's own message when there is one (RpcError carries it). */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}
