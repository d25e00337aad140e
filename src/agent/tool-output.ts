import type { LanguageModelV4Message, LanguageModelV4ToolResultPart } from '@ai-sdk/provider';
import type { ModelHandle } from '../providers/types.ts';
import type { ImageData, ToolResult } from '../tools/types.ts';

type Output = LanguageModelV4ToolResultPart['output'];

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * A tool's result as the model receives it: its text, and the images it returned (Read of an
 * image, an MCP tool's picture) as image parts of the result, which every wire carries (chat wires
 * move them next to the result: providers/wire-prompt.ts). A model that takes no images gets the
 * text and a plain note instead of an error from its server.
 */
export function toolOutput(r: ToolResult, model: Pick<ModelHandle, 'label' | 'facts'>): Output {
  if (r.isError) return { type: 'error-text', value: r.output };
  const images = r.images ?? [];
  if (images.length === 0) return { type: 'text', value: r.output };
  if (model.facts?.images === false) {
    return {
      type: 'text',
      value: `${r.output}\n\n[${plural(images.length, 'image')} not shown: ${model.label} does not take images. Describe what you need from ${images.length === 1 ? 'it' : 'them'} to the user, or work from text.]`,
    };
  }
  return {
    type: 'content',
    value: [
      { type: 'text', text: r.output },
      ...images.map((i) => ({ type: 'file' as const, data: { type: 'data' as const, data: i.data }, mediaType: i.mediaType })),
    ],
  };
}

/** A user message's parts: its texts, then its images (`@shot.png`). */
export function userContent(texts: string[], images: ImageData[] = []): Extract<LanguageModelV4Message, { role: 'user' }>['content'] {
  return [
    ...texts.map((text) => ({ type: 'text' as const, text })),
    ...images.map((i) => ({ type: 'file' as const, data: { type: 'data' as const, data: i.data }, mediaType: i.mediaType })),
  ];
}
