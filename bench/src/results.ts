/** One row of the benchmark table: a figure, its reference measured in the same run, and the budget. */
export interface BenchRow {
  area: string;
  what: string;
  unit: string;
  /** null when the section could not measure it (see `note`). */
  value: number | null;
  reference?: { what: string; value: number };
  ratio?: number;
  budget: string;
  met: boolean;
  note?: string;
}
