// HTML → Markdown for WebFetch, with turndown: scripts, styles and page chrome dropped, links made absolute.
import TurndownService from 'turndown';

/** Elements whose content is never useful to a model reading a page. */
const DROPPED_ELEMENTS = ['script', 'style', 'noscript', 'iframe', 'svg', 'template', 'head', 'title', 'canvas', 'object', 'embed'] as const;

/** The part of a DOM element the rules read (the project compiles without the DOM lib). */
interface ElementLike {
  getAttribute(name: string): string | null;
}

export interface ConvertedPage {
  readonly title?: string;
  readonly markdown: string;
}

/** Converts a page; relative links and images are resolved against `baseUrl`. */
export function htmlToMarkdown(html: string, baseUrl: string): ConvertedPage {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  service.remove([...DROPPED_ELEMENTS]);
  service.addRule('absoluteLinks', {
    filter: (node) => node.nodeName === 'A' && !!(node as unknown as ElementLike).getAttribute('href'),
    replacement: (content, node) => {
      const href = absolute((node as unknown as ElementLike).getAttribute('href')!, baseUrl);
      const text = content.trim();
      return text === '' ? '' : href.startsWith('javascript:') ? text : `[${text}](${href})`;
    },
  });
  service.addRule('absoluteImages', {
    filter: 'img',
    replacement: (_content, node) => {
      const src = (node as unknown as ElementLike).getAttribute('src');
      const alt = (node as unknown as ElementLike).getAttribute('alt') ?? '';
      return src ? `![${alt}](${absolute(src, baseUrl)})` : '';
    },
  });
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.replace(/\s+/g, ' ').trim();
  const markdown = service.turndown(html).replace(/\n{3,}/g, '\n\n').trim();
  return { title: title || undefined, markdown };
}

function absolute(href: string, base: string): string {
  try {
    return new URL(href, base).toString();
  } catch {
    return href;
  }
}
