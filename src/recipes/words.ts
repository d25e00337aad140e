/** Lower-case word stems of a text, for matching a task's words to recipe keywords. */
const STOP = new Set(
  'a an the and or of to in on for with from by at is are be it this that my our your i we me as into then do does not no please can could would should will all some any'.split(
    ' ',
  ),
);

function stem(word: string): string {
  // A crude stemmer: duplicate, duplicated and duplicates are one word; so are change and changes.
  return word
    .toLowerCase()
    .replace(/(?:ing|ed|es|s)$/, '')
    .replace(/(?<=..)e$/, '')
    .replace(/(.)\1$/, '$1');
}

export function stems(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9][a-z0-9.+#-]*/g) ?? []).filter((w) => !STOP.has(w)).map(stem);
}
