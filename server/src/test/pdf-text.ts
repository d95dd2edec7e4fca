/** The text of a PDF (invoices, decision 0064), extracted with pdf-parse, runs of spaces made one, for assertions. */
import { PDFParse } from 'pdf-parse';

export async function pdfText(bytes: Uint8Array): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    return (await parser.getText()).text.replace(/[ \t]+/g, ' ');
  } finally {
    await parser.destroy();
  }
}
