/** The definition Redoc's page embeds and hydrates from (`const __redoc_definition = {…};`). */
export function embeddedDefinition(html: string): unknown {
  const start = html.indexOf('const __redoc_definition = ');
  if (start < 0) throw new Error('The page embeds no Redoc definition');
  const from = start + 'const __redoc_definition = '.length;
  const end = html.indexOf(';\n', from);
  return JSON.parse(html.slice(from, end));
}

/** The text of the markup Redoc pre-rendered on the server: the page without scripts, styles and tags. */
export function prerenderedText(html: string): string {
  const root = html.indexOf('<div id="redoc">');
  if (root < 0) throw new Error('The page has no pre-rendered Redoc root');
  return html
    .slice(root)
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, ' ')
    .replace(/<style\b[^>]*>[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}
