/**
 * What kind of paper it is, as far as a training recipe is concerned: one that trains a model of its
 * own (a method, an application, a system), or a survey, an analysis or a benchmark, which train
 * nothing a reader would reproduce with TRL. Pure, from the title and abstract.
 */
import { SURVEY_TITLE } from './lexicon.ts';

export type PaperKind = 'trains' | 'survey' | 'analysis' | 'benchmark';

const SURVEY_ABSTRACT =
  /\b(?:this|our|the present) (?:survey|review|tutorial|primer|position paper)\b|\bwe (?:survey|review)\b|\b(?:comprehensive|systematic|structured) (?:survey|review|overview)\b/i;
/** A benchmark named in the title: "X-Bench", "a Benchmark for", "Leaderboard". */
const BENCHMARK_TITLE =
  /\b[\w-]*Bench\b|\bbenchmark(?:s|ing)?\b|\bleaderboard\b|\bevaluation suite\b|\bevaluation (?:for|of)\b/i;
/** Titles of field overviews that do not say "survey": "Advances and Open Problems". */
const OVERVIEW_TITLE = /\bopen problems\b|\badvances and\b|\bstate of the art\b|\blandscape\b/i;
/** Titles of studies: "Does RL Really ...?", "Understanding ...", "An Empirical Study of ...", "What Matters in ...". */
const ANALYSIS_TITLE =
  /^(?:(?:does|do|can|is|are|why|how|what|when|which)\b|understanding\b|rethinking\b|revisiting\b|demystifying\b|dissecting\b|investigating\b|on the\b|towards? (?:a |an )?(?:understanding|theory)\b)|\b(?:an? )?(?:empirical|systematic|closer|comprehensive|large-scale) (?:study|look|analysis|investigation)\b|\bwhat matters\b|\blessons\b|\bwhy\b|\binvestigat\w*|\blook at\b|\bpitfalls\b|\bmislead\w*|\?/i;
/** The authors propose something they train: a method, algorithm, framework or model of their own. */
const PROPOSES =
  /\bwe (?:\w+ )?(?:propose|introduce|present|develop|design)\s+(?:a |an |the )?(?:new |novel |simple |general |unified )?(?:[\w-]+ ){0,4}?(?:method|algorithm|objective|loss|framework|approach|technique|recipe|strategy|model|policy optimi[sz]ation|estimator|regulari[sz]\w+|reward)\b|\bwe (?:\w+ )?(?:propose|introduce|present)\s+[A-Z][\w-]*[A-Z]/i;

/** What an evaluation paper proposes: not something a reader trains. */
const EVALUATION_THING = /\b(?:evaluation|benchmark|dataset|testbed|suite|leaderboard|protocol|metric)s?\b/i;
/** "We conduct a systematic study of ...": a study, whatever its title says. */
const ANALYSIS_ABSTRACT =
  /\bwe (?:\w+ )?(?:conduct|present|perform|carry out|provide)\s+(?:a |an )?(?:[\w-]+ ){0,3}?(?:study|analysis|investigation|examination)\b|\b(?:this|our) (?:study|analysis) (?:shows|reveals|finds)\b/i;

const PROPOSES_ALL = new RegExp(PROPOSES.source, 'gi');

/** The authors propose something they train (a method or model), not an evaluation. */
function proposesMethod(abstract: string): boolean {
  return [...abstract.matchAll(PROPOSES_ALL)].some((m) => !EVALUATION_THING.test(m[0]));
}

export function paperKind({ title, abstract }: { title: string; abstract: string }): PaperKind {
  if (SURVEY_TITLE.test(title) || OVERVIEW_TITLE.test(title) || SURVEY_ABSTRACT.test(abstract)) return 'survey';
  const proposes = proposesMethod(abstract);
  if (BENCHMARK_TITLE.test(title) && !proposes) return 'benchmark';
  if ((ANALYSIS_TITLE.test(title) || ANALYSIS_ABSTRACT.test(abstract)) && !proposes) return 'analysis';
  return 'trains';
}
