/** A 5x5 mirrored pattern in one colour, drawn from a hex digest, as SVG. */
export function identicon(hex: string): string {
  const hue = parseInt(hex.slice(0, 3), 16) % 360
  const cells: string[] = []
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col < 3; col++) {
      if (parseInt(hex[3 + row * 3 + col], 16) % 2 === 0) continue
      for (const x of new Set([col, 4 - col])) cells.push(`<rect x="${x + 1}" y="${row + 1}" width="1" height="1"/>`)
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 7 7"><rect width="7" height="7" fill="hsl(${hue} 30% 92%)"/>` +
    `<g fill="hsl(${hue} 55% 45%)">${cells.join('')}</g></svg>`
}
