// Base64 for bytes crossing the host ABI (file contents, request and response bodies).
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (<u32>bytes[i] << 16) | (<u32>bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET.charAt((n >> 18) & 63) + ALPHABET.charAt((n >> 12) & 63) + ALPHABET.charAt((n >> 6) & 63) + ALPHABET.charAt(n & 63);
  }
  const rest = bytes.length - i;
  if (rest == 1) {
    const n = <u32>bytes[i] << 16;
    out += ALPHABET.charAt((n >> 18) & 63) + ALPHABET.charAt((n >> 12) & 63) + '==';
  } else if (rest == 2) {
    const n = (<u32>bytes[i] << 16) | (<u32>bytes[i + 1] << 8);
    out += ALPHABET.charAt((n >> 18) & 63) + ALPHABET.charAt((n >> 12) & 63) + ALPHABET.charAt((n >> 6) & 63) + '=';
  }
  return out;
}

function sextet(c: i32): i32 {
  if (c >= 65 && c <= 90) return c - 65;
  if (c >= 97 && c <= 122) return c - 71;
  if (c >= 48 && c <= 57) return c + 4;
  if (c == 43) return 62;
  if (c == 47) return 63;
  return -1;
}

export function decodeBase64(text: string): Uint8Array {
  const out = new Uint8Array((text.length / 4) * 3);
  let length = 0;
  let buffer: u32 = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const v = sextet(text.charCodeAt(i));
    if (v < 0) continue;
    buffer = (buffer << 6) | <u32>v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[length++] = <u8>((buffer >> bits) & 0xff);
    }
  }
  return out.subarray(0, length);
}

export function utf8(text: string): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode(text));
}

export function fromUtf8(bytes: Uint8Array): string {
  return String.UTF8.decodeUnsafe(bytes.dataStart, bytes.length);
}
