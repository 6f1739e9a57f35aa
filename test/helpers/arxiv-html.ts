import { readFileSync } from 'node:fs';
import path from 'node:path';

const DIR = path.resolve(import.meta.dirname, '../fixtures/arxiv-html');

/** A LaTeXML page in arXiv's structure from test/fixtures/arxiv-html (written for these tests). */
export const htmlFixture = (name: string): string => readFileSync(path.join(DIR, name), 'utf8');

/** The full paper fixture: "Balanced Clipping for GRPO", arXiv 2611.04242v2. */
export const PAPER_HTML = '2611.04242v2.html';
