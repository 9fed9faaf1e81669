/**
 * Result sets shaped like the demo shop's (regions, categories, months, customers), generated with a fixed seed so
 * every run draws the same pictures.
 */
import { seededRandom } from '../../src/visualizations/sample.ts'
import type { DataColumn, Row } from '../../src/visualizations/types.ts'

export interface Result {
  columns: DataColumn[]
  rows: Row[]
}

export const REGIONS = ['North America', 'Europe', 'Asia Pacific', 'Latin America']
export const CATEGORIES = ['Audio', 'Bags', 'Home', 'Outdoor', 'Computing', 'Apparel']

const col = (name: string, type: string): DataColumn => ({ name, type, friendly_name: name })

/** Revenue and orders per month and region over two years, growing with a seasonal swing. */
export function monthlyRevenue(): Result {
  const random = seededRandom(7)
  const rows: Row[] = []
  for (let m = 0; m < 24; m++) {
    const month = `${2023 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}-01`
    REGIONS.forEach((region, r) => {
      const base = [52_000, 41_000, 33_000, 14_000][r] * (1 + m * 0.025) * (1 + 0.18 * Math.sin((m + r) / 1.9))
      rows.push({ month, region, revenue: Math.round(base * (0.9 + random() * 0.2)), orders: Math.round(base / 61) })
    })
  }
  return { columns: [col('month', 'date'), col('region', 'string'), col('revenue', 'float'), col('orders', 'integer')], rows }
}

/** Revenue, units and margin per product category. */
export function categorySales(): Result {
  const rows = CATEGORIES.map((category, i) => ({
    category, revenue: [182_300, 96_500, 121_900, 74_200, 240_800, 88_100][i], units: [2310, 1840, 2650, 1020, 1490, 2980][i],
    margin: [0.31, 0.42, 0.37, 0.28, 0.19, 0.46][i],
  }))
  return { columns: [col('category', 'string'), col('revenue', 'float'), col('units', 'integer'), col('margin', 'float')], rows }
}

/** One row per product: price, units sold and rating, for scatter and bubble charts. */
export function products(count = 60): Result {
  const random = seededRandom(11)
  const rows: Row[] = Array.from({ length: count }, (_, i) => {
    const price = Math.round((10 + random() * 240) * 100) / 100
    return {
      product: `Product ${i + 1}`, category: CATEGORIES[i % 6], price,
      units: Math.round(3000 / Math.sqrt(price) * (0.6 + random() * 0.8)), rating: Math.round((3 + random() * 2) * 10) / 10,
    }
  })
  return { columns: [col('product', 'string'), col('category', 'string'), col('price', 'float'), col('units', 'integer'), col('rating', 'float')], rows }
}

/** Order values per region, for box plots. */
export function orderValues(): Result {
  const random = seededRandom(3)
  const rows: Row[] = []
  REGIONS.forEach((region, r) => {
    for (let i = 0; i < 150; i++) rows.push({ region, order_value: Math.round((40 + r * 12) * Math.exp(random() * 1.4) + (i % 37 === 0 ? 600 : 0)) })
  })
  return { columns: [col('region', 'string'), col('order_value', 'float')], rows }
}

/** The checkout funnel. */
export function checkoutFunnel(): Result {
  const steps = [['Visited store', 48_210], ['Viewed product', 31_877], ['Added to cart', 9_820], ['Started checkout', 5_104], ['Paid', 3_967]]
  return { columns: [col('step', 'string'), col('users', 'integer')], rows: steps.map(([step, users]) => ({ step, users })) }
}

/** Monthly signup cohorts and how many customers ordered again N months later. */
export function retentionCohorts(): Result {
  const rows: Row[] = []
  for (let c = 0; c < 8; c++) {
    const date = `2024-${String(c + 1).padStart(2, '0')}-01`
    const total = 400 + c * 35
    for (let n = 0; n < 8 - c; n++) rows.push({ signup_month: date, month_number: n, total, active: Math.round(total * (n ? 0.55 * Math.pow(0.8, n - 1) : 1)) })
  }
  return { columns: [col('signup_month', 'date'), col('month_number', 'integer'), col('total', 'integer'), col('active', 'integer')], rows }
}

/** Customer journeys: channel → category → outcome, with counts (the established tool's stage1… names). */
export function journeys(): Result {
  const channels = ['Search', 'Social', 'Email', 'Direct']
  const outcomes = ['Purchased', 'Abandoned']
  const random = seededRandom(5)
  const rows: Row[] = []
  for (const stage1 of channels) for (const stage2 of CATEGORIES.slice(0, 4)) for (const stage3 of outcomes) {
    rows.push({ stage1, stage2, stage3, value: Math.round(50 + random() * 400 * (stage3 === 'Purchased' ? 0.4 : 1)) })
  }
  return { columns: [col('stage1', 'string'), col('stage2', 'string'), col('stage3', 'string'), col('value', 'integer')], rows }
}

/** Page sequences with session counts, for the sunburst. */
export function sessions(): Result {
  const rows = [
    ['home-product-cart-checkout', 820], ['home-product-cart', 640], ['home-product', 1900], ['home-search-product-cart', 410],
    ['home-search-product', 980], ['home-search', 700], ['product-cart-checkout', 520], ['product', 1300], ['search-product-cart-checkout', 260],
    ['search-product', 760], ['home', 2100], ['product-reviews', 380], ['home-deals-product-cart', 300], ['home-deals', 450],
  ].map(([sequence, sessions]) => ({ sequence, sessions }))
  return { columns: [col('sequence', 'string'), col('sessions', 'integer')], rows }
}

/** Short product reviews, for the word cloud. */
export function reviews(): Result {
  const random = seededRandom(9)
  const words = ['comfortable', 'battery', 'sturdy', 'quality', 'price', 'shipping', 'fast', 'quiet', 'light', 'warm', 'great',
    'sound', 'zipper', 'cheap', 'durable', 'stylish', 'waterproof', 'keyboard', 'lamp', 'bright', 'recommend', 'return',
    'size', 'colour', 'gift', 'perfect', 'broke', 'excellent', 'value', 'design']
  const rows = Array.from({ length: 300 }, () => {
    const n = 3 + Math.floor(random() * 6)
    // squaring the draw makes early words common and late ones rare, as in real reviews
    const text = Array.from({ length: n }, () => words[Math.floor(random() ** 2 * words.length)]).join(' ')
    return { review: text }
  })
  return { columns: [col('review', 'string')], rows }
}

/** Customers with every kind of cell a table formats. */
export function customers(count = 40): Result {
  const random = seededRandom(13)
  const first = ['Ada', 'Ben', 'Chloé', 'Dmitri', 'Emma', 'Farah', 'Gustavo', 'Hana', 'Ivan', 'Jia']
  const last = ['Almeida', 'Brown', 'Chen', 'Dubois', 'Eriksson', 'Fischer', 'García', 'Hoang', 'Ivanova', 'Jensen']
  const rows: Row[] = Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `${first[i % 10]} ${last[(i * 7) % 10]}`,
    email: `customer${i + 1}@example.com`,
    segment: ['Consumer', 'Small Business', 'Enterprise'][i % 3],
    signed_up_at: new Date(Date.UTC(2024, 0, 1) + Math.floor(random() * 300) * 86_400_000 + i * 3_600_000).toISOString(),
    lifetime_value: Math.round(random() * 500_000) / 100,
    active: i % 4 !== 0,
    profile: { tier: ['bronze', 'silver', 'gold'][i % 3], tags: i % 2 ? ['newsletter'] : [] },
  }))
  return {
    columns: [col('id', 'integer'), col('name', 'string'), col('email', 'string'), col('segment::filter', 'string'),
      col('signed_up_at', 'datetime'), col('lifetime_value', 'float'), col('active', 'boolean'), col('profile', 'string')],
    rows: rows.map((r) => ({ ...r, 'segment::filter': r.segment })),
  }
}
