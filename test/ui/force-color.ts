// Imported first by tests that need colour on (chalk reads FORCE_COLOR once, when it loads): the
// highlighter runs only when there is colour.
process.env.FORCE_COLOR = '1';
