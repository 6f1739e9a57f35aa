/**
 * Turns a question into a search query (pure). `searchPapers` ranks any-word matches, but question
 * scaffolding ("which paper", "how do I") and generic words every abstract has ("model", "LLM") only
 * add noise to the ranking, so they are dropped; the question's content words stay in order.
 */
const FILLER = new Set([
  'which', 'what', 'whats', 'who', 'whom', 'whose', 'where', 'when', 'why', 'how', 'is', 'are', 'was', 'were', 'do', 'does', 'did',
  'can', 'could', 'should', 'would', 'will', 'there', 'any', 'some', 'a', 'an', 'the', 'i', 'me', 'my', 'we', 'our', 'you', 'it', 'its',
  'paper', 'papers', 'work', 'works', 'study', 'studies', 'method', 'methods', 'approach', 'approaches', 'article', 'research',
  'propose', 'proposes', 'proposed', 'introduce', 'introduces', 'present', 'presents', 'show', 'shows', 'find', 'finds', 'found',
  'tell', 'about', 'know', 'known', 'one', 'ones', 'someone', 'something', 'anything', 'that', 'this', 'these', 'those',
  'model', 'models', 'llm', 'llms', 'language', 'large', 'to', 'of', 'in', 'on', 'for', 'with', 'by', 'and', 'or', 'from', 'into',
  'using', 'use', 'uses', 'used', 'get', 'gets', 'make', 'makes', 'via', 'like', 'than', 'then', 'so', 'be', 'been', 'has', 'have', 'had',
  'not', 'no', 'instead', 'rather', 'way', 'ways', 'idea', 'also', 'just', 'really', 'actually',
]);

export function questionToQuery(question: string): string {
  const words = question
    .replace(/[?!.,;:()"“”]/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !FILLER.has(w.toLowerCase().replace(/['’]s$/, '')));
  const q = words.join(' ').trim();
  return q || question.trim();
}
