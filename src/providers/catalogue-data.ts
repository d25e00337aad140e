import { MODELS } from '../../node_modules/@mariozechner/pi-ai/dist/models.generated.js';
import { compactCatalogue } from './catalogue-compact.ts';

/**
 * The catalogue's data (catalogue-compact.ts). The build replaces this module with the result,
 * computed once (scripts/build.mjs), so the bundle carries ~20 KB of figures, not the whole source.
 */
export const CATALOGUE = compactCatalogue(MODELS as never);
