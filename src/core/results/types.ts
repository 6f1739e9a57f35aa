/**
 * The results ledger's shapes (issue 28): a paper's result tables as arXiv's HTML lays them out, and the
 * rows read from them: who (method, base model), where (benchmark, metric), how much (value), under what
 * protocol, and the cell or sentence that says so. Pure data; src/core/results/extract.ts reads tables
 * into rows, the job stores them, /results groups them by protocol.
 */

/** One cell of a table: its text (math as LaTeX alt text), whether LaTeXML marked it a header, emphasis. */
export interface TableCell {
  text: string;
  header: boolean;
  /** Bold or underlined: papers mark the best number this way. */
  bold: boolean;
  colspan: number;
  rowspan: number;
}

/** A data table of the paper (never an equation layout), with its caption and the section it sits in. */
export interface ResultTable {
  /** LaTeXML's id of the table (`S4.T2`), or a position (`table-3`) when it has none. */
  id: string;
  /** "Table 2: Results on ..." as printed, '' when none. */
  caption: string;
  /** The heading of the section the table sits in ("4 Experiments › 4.2 Main results"). */
  section: string;
  /** Rows top to bottom, cells left to right, spans as printed (not expanded). */
  rows: TableCell[][];
}

/** How a number was produced, as the paper states it; a field is absent when the text does not say. */
export interface Protocol {
  /** Maximum new tokens per response. */
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  /** Samples per problem behind the number (avg@k, maj@k, pass@k all state k). */
  samples?: number;
}

/** One reported number: a method (the paper's own or a baseline) on one benchmark. */
export interface ResultRow {
  /** The table's id, or `text` for a number read from a sentence. */
  table: string;
  /** The row's label as printed ("DAPO", "+ Clip-Higher", "Qwen2.5-Math-7B"). */
  method: string;
  /** The base model and size the row is about, when the row or its group names one ("Qwen2.5-Math-7B"). */
  baseModel: string | null;
  /** The row is the base model itself, before anyone's training (the number a gain is measured from). */
  isBase: boolean;
  /** The row is the paper's own method (not a baseline from elsewhere). */
  isOwn: boolean;
  /** Canonical benchmark name (`AIME24`, `MATH500`; src/core/results/benchmarks.ts). */
  benchmark: string;
  /** `pass@1`, `avg@32`, `maj@16`, `pass@16`..., or `unstated` when the paper does not say. */
  metric: string;
  /** The number as printed (a percentage stays a percentage). */
  value: number;
  protocol: Protocol;
  /** Where it was read: "Table 2, row 'DAPO', column 'AIME24': 50.0" or the sentence. */
  evidence: string;
}
