/**
 * The Chinese dictionary for segmenting queries: the jieba word counts the seed repair already ships
 * (seeds/repair/zh-model.txt), plus the glossary and question words as known words. Read once, on
 * the first Chinese query.
 */
import { readFile } from 'node:fs/promises';
import { MODEL_URL } from '../package-files.ts';
import { ZH_GLOSSARY } from '../../core/ranking/glossary.ts';
import { SCAFFOLD_ZH } from '../../core/ranking/query.ts';
import { zhDictionary, type ZhDictionary } from '../../core/ranking/zh.ts';

let loading: Promise<ZhDictionary> | undefined;

export function chineseDictionary(): Promise<ZhDictionary> {
  loading ??= readFile(MODEL_URL, 'utf8').then((text) => {
    const counts = new Map<string, number>();
    for (const line of text.split('\n')) {
      // Word lines are `word count tag`; the model's other lines start with #, @, = or ~.
      const m = /^([^\s#@=~][^\s]*) (\d+) \S+$/.exec(line);
      if (m && /^\p{Script=Han}+$/u.test(m[1]!)) counts.set(m[1]!, Number(m[2]));
    }
    return zhDictionary(counts, [...Object.keys(ZH_GLOSSARY), ...SCAFFOLD_ZH]);
  });
  return loading;
}
