import { describe, expect, it } from 'vitest'
import { csvField, toCsv } from '../../src/renderer/src/composables/csv'

/** Cells as a spreadsheet reads a CSV line with `sep` as its separator (RFC 4180 quoting). */
function cells(line: string, sep: ',' | ';'): string[] {
  const out: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quoted && c === '"' && line[i + 1] === '"') {
      cell += '"'
      i++
    } else if (c === '"') {
      quoted = !quoted
    } else if (!quoted && c === sep) {
      out.push(cell)
      cell = ''
    } else {
      cell += c
    }
  }
  return [...out, cell]
}

const hostile = ['Ann;=2+5', 'Bo;@SUM(A1:A9)', 'a,=1+1', '=cmd|"/c calc"!A1', '+1', '-2', '@SUM(A1)', 'tab\t=1', 'plain']

describe('CSV fields', () => {
  for (const sep of [',', ';'] as const) {
    it(`never starts a cell with a formula when a spreadsheet splits on "${sep}"`, () => {
      const line = toCsv(['name', 'reason'], [[hostile[0]!, hostile[1]!], [hostile[2]!, hostile[0]!], ...hostile.slice(3).map((h) => [h, 'x'])]).split('\r\n')
      for (const row of line.slice(1, -1)) {
        const read = cells(row, sep)
        for (const cell of read) expect(cell, `${row} read with "${sep}"`).not.toMatch(/^[=+\-@]/)
      }
    })
  }

  it('keeps a name whole in either locale: quoted when it holds a separator, a quote, a tab or a line break', () => {
    expect(csvField('Ann;Bo')).toBe('"Ann;Bo"')
    expect(csvField('Ann,Bo')).toBe('"Ann,Bo"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('a\tb')).toBe('"a\tb"')
    expect(csvField('Ann')).toBe('Ann')
    expect(cells(csvField('Ann;Bo'), ';')).toEqual(['Ann;Bo'])
  })
})
