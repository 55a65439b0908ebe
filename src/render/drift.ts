// A drift report in any of its formats: text, JSON, Markdown or JUnit.

import type { DriftReport } from '../report/types.js';
import { renderDriftJson } from './drift-json.js';
import { renderDriftJunit } from './drift-junit.js';
import { renderDriftMarkdown, type DriftMarkdownOptions } from './drift-markdown.js';
import { renderDriftText } from './drift-text.js';
import type { Style } from './style.js';

/** The output formats of a drift report. */
export const DRIFT_FORMATS = ['text', 'json', 'markdown', 'junit'] as const;

/** One of DRIFT_FORMATS. */
export type DriftFormat = (typeof DRIFT_FORMATS)[number];

/** Render a report in `format` (`style` colours the text format; `markdown` sizes the Markdown). */
export function renderDrift(report: DriftReport, format: DriftFormat, style: Style, markdown: DriftMarkdownOptions = {}): string {
  switch (format) {
    case 'text':
      return renderDriftText(report, style);
    case 'json':
      return renderDriftJson(report);
    case 'markdown':
      return renderDriftMarkdown(report, markdown);
    case 'junit':
      return renderDriftJunit(report);
    default: {
      const never: never = format;
      throw new Error(`unknown format ${String(never)}`);
    }
  }
}
