/** The Chinese half of a catalogue: exactly the English keys, any strings. */
export type Catalogue<T extends Record<string, string>> = { [K in keyof T]: string };
