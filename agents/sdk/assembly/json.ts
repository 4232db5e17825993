// Just enough JSON for the host ABI (docs/agent-runtime.md): a writer for requests and a parser for responses.

export function quote(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c == 0x22) out += '\\"';
    else if (c == 0x5c) out += '\\\\';
    else if (c == 0x0a) out += '\\n';
    else if (c == 0x0d) out += '\\r';
    else if (c == 0x09) out += '\\t';
    else if (c < 0x20) out += '\\u00' + (c < 0x10 ? '0' : '') + c.toString(16);
    else out += String.fromCharCode(c);
  }
  return out + '"';
}

/** Builds one JSON object, field by field. */
export class JsonWriter {
  private body: string = '';

  private key(name: string): void {
    if (this.body.length > 0) this.body += ',';
    this.body += quote(name) + ':';
  }

  str(name: string, value: string): JsonWriter {
    this.key(name);
    this.body += quote(value);
    return this;
  }

  int(name: string, value: i64): JsonWriter {
    this.key(name);
    this.body += value.toString();
    return this;
  }

  bool(name: string, value: bool): JsonWriter {
    this.key(name);
    this.body += value ? 'true' : 'false';
    return this;
  }

  /** A value already written as JSON. */
  raw(name: string, json: string): JsonWriter {
    this.key(name);
    this.body += json;
    return this;
  }

  toString(): string {
    return '{' + this.body + '}';
  }
}

export const enum JsonKind {
  Null,
  Bool,
  Number,
  String,
  Array,
  Object,
}

export class JsonValue {
  kind: JsonKind = JsonKind.Null;
  boolValue: bool = false;
  numberValue: f64 = 0;
  stringValue: string = '';
  items: JsonValue[] = [];
  keys: string[] = [];
  values: JsonValue[] = [];

  /** The member `name` of an object, or a null value. */
  get(name: string): JsonValue {
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i] == name) return this.values[i];
    return new JsonValue();
  }

  has(name: string): bool {
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i] == name) return true;
    return false;
  }

  asString(): string {
    return this.kind == JsonKind.String ? this.stringValue : '';
  }

  asInt(): i64 {
    return this.kind == JsonKind.Number ? <i64>this.numberValue : 0;
  }

  asBool(): bool {
    return this.kind == JsonKind.Bool && this.boolValue;
  }
}

class Parser {
  at: i32 = 0;
  constructor(public text: string) {}

  skip(): void {
    while (this.at < this.text.length) {
      const c = this.text.charCodeAt(this.at);
      if (c != 0x20 && c != 0x0a && c != 0x0d && c != 0x09) break;
      this.at++;
    }
  }

  value(): JsonValue {
    this.skip();
    const v = new JsonValue();
    const c = this.text.charCodeAt(this.at);
    if (c == 0x7b) {
      v.kind = JsonKind.Object;
      this.at++;
      this.skip();
      if (this.text.charCodeAt(this.at) == 0x7d) {
        this.at++;
        return v;
      }
      while (this.at < this.text.length) {
        this.skip();
        const key = this.string();
        this.skip();
        this.at++; // ':'
        v.keys.push(key);
        v.values.push(this.value());
        this.skip();
        const next = this.text.charCodeAt(this.at++);
        if (next == 0x7d) break;
      }
    } else if (c == 0x5b) {
      v.kind = JsonKind.Array;
      this.at++;
      this.skip();
      if (this.text.charCodeAt(this.at) == 0x5d) {
        this.at++;
        return v;
      }
      while (this.at < this.text.length) {
        v.items.push(this.value());
        this.skip();
        const next = this.text.charCodeAt(this.at++);
        if (next == 0x5d) break;
      }
    } else if (c == 0x22) {
      v.kind = JsonKind.String;
      v.stringValue = this.string();
    } else if (c == 0x74) {
      v.kind = JsonKind.Bool;
      v.boolValue = true;
      this.at += 4;
    } else if (c == 0x66) {
      v.kind = JsonKind.Bool;
      this.at += 5;
    } else if (c == 0x6e) {
      this.at += 4;
    } else {
      v.kind = JsonKind.Number;
      const start = this.at;
      while (this.at < this.text.length) {
        const d = this.text.charCodeAt(this.at);
        if ((d >= 0x30 && d <= 0x39) || d == 0x2d || d == 0x2b || d == 0x2e || d == 0x65 || d == 0x45) this.at++;
        else break;
      }
      v.numberValue = parseFloat(this.text.substring(start, this.at));
    }
    return v;
  }

  string(): string {
    this.at++; // opening quote
    let out = '';
    while (this.at < this.text.length) {
      const c = this.text.charCodeAt(this.at++);
      if (c == 0x22) break;
      if (c != 0x5c) {
        out += String.fromCharCode(c);
        continue;
      }
      const e = this.text.charCodeAt(this.at++);
      if (e == 0x6e) out += '\n';
      else if (e == 0x72) out += '\r';
      else if (e == 0x74) out += '\t';
      else if (e == 0x62) out += '\b';
      else if (e == 0x66) out += '\f';
      else if (e == 0x75) {
        out += String.fromCharCode(<i32>parseInt(this.text.substring(this.at, this.at + 4), 16));
        this.at += 4;
      } else out += String.fromCharCode(e);
    }
    return out;
  }
}

export function parseJson(text: string): JsonValue {
  return new Parser(text).value();
}
