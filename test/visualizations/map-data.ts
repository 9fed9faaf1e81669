/**
 * Result sets for the map pictures: customers per country, US state, Japanese prefecture and Korean province, and
 * store locations around a few cities, generated with a fixed seed so every run draws the same pictures.
 */
import { seededRandom } from '../../src/visualizations/sample.ts'
import type { DataColumn } from '../../src/visualizations/types.ts'
import type { Result } from './demo-data.ts'

const col = (name: string, type: string): DataColumn => ({ name, type, friendly_name: name })

/** Customers per country by ISO code: 40 countries, some keys in lower case or unknown to the map. */
export function customersByCountry(): Result {
  const codes = ['US', 'CA', 'MX', 'BR', 'AR', 'CL', 'CO', 'PE', 'GB', 'IE', 'FR', 'de', 'ES', 'PT', 'IT', 'NL', 'BE', 'SE', 'NO', 'FI',
    'PL', 'CZ', 'AT', 'CH', 'RU', 'UA', 'TR', 'EG', 'ZA', 'NG', 'KE', 'IN', 'CN', 'JP', 'KR', 'ID', 'AU', 'NZ', 'SA', 'ZZ']
  const random = seededRandom(11)
  const rows = codes.map((country, i) => ({ country, customers: Math.round((4000 / (1 + i * 0.35)) * (0.7 + random() * 0.6)) }))
  return { columns: [col('country', 'string'), col('customers', 'integer')], rows }
}

/** Sales per US state by USPS code, for about two thirds of the states. */
export function salesByState(): Result {
  const states = ['CA', 'TX', 'FL', 'NY', 'PA', 'IL', 'OH', 'GA', 'NC', 'MI', 'NJ', 'VA', 'WA', 'AZ', 'MA', 'TN', 'IN', 'MO', 'MD', 'WI',
    'CO', 'MN', 'SC', 'AL', 'LA', 'KY', 'OR', 'OK', 'CT', 'UT', 'AK', 'HI']
  const rows = states.map((state, i) => ({ state, sales: Math.round(250_000 / (1 + i * 0.2)) }))
  return { columns: [col('state', 'string'), col('sales', 'float')], rows }
}

/** Visitors per prefecture by name, spelled without macrons as data often is ("Oita" for Ōita). */
export function visitorsByPrefecture(): Result {
  const names = ['Tokyo', 'Osaka', 'Kyoto', 'Hokkaido', 'Okinawa', 'Fukuoka', 'Kanagawa', 'Aichi', 'Hyogo', 'Hiroshima', 'Nara',
    'Ishikawa', 'Nagano', 'Oita', 'Kagoshima', 'Miyagi', 'Shizuoka', 'Chiba', 'Kumamoto', 'Nagasaki']
  const rows = names.map((prefecture, i) => ({ prefecture, visitors: Math.round(9_000_000 / (1 + i * 0.5)) }))
  return { columns: [col('prefecture', 'string'), col('visitors', 'integer')], rows }
}

/** Population (thousands) of the Korean provinces and metropolitan cities by province code. */
export function populationByProvince(): Result {
  const population: [string, number][] = [['11', 9386], ['26', 3317], ['27', 2363], ['28', 2967], ['29', 1431], ['30', 1442],
    ['31', 1110], ['50', 386], ['41', 13630], ['42', 1536], ['43', 1595], ['44', 2123], ['45', 1769], ['46', 1817], ['47', 2600],
    ['48', 3280], ['49', 678]]
  return { columns: [col('code', 'string'), col('population', 'integer')], rows: population.map(([code, p]) => ({ code, population: p })) }
}

/** `n` stores scattered around a few US cities, of three kinds. */
export function storeLocations(n: number): Result {
  const cities = [[40.71, -74.0], [34.05, -118.24], [41.88, -87.63], [29.76, -95.37], [47.61, -122.33], [25.76, -80.19], [39.74, -104.99], [33.75, -84.39]]
  const random = seededRandom(3)
  const rows = Array.from({ length: n }, (_, i) => {
    const [lat, lon] = cities[i % cities.length]
    const spread = n > 100 ? 2.5 : 7
    return {
      name: `Store ${i + 1}`, kind: ['Outlet', 'Flagship', 'Pop-up'][i % 3],
      lat: Math.round((lat + (random() - 0.5) * spread) * 1e4) / 1e4, lon: Math.round((lon + (random() - 0.5) * spread * 1.3) * 1e4) / 1e4,
    }
  })
  return { columns: [col('name', 'string'), col('kind', 'string'), col('lat', 'float'), col('lon', 'float')], rows }
}

/** Weather stations along Honshu, Shikoku and Kyushu: markers inside one country, drawn with its prefectures. */
export function japanStations(): Result {
  const line: [number, number][] = [[33.6, 130.4], [34.4, 132.5], [34.7, 135.5], [35.2, 136.9], [35.7, 139.7], [38.3, 140.9], [39.7, 141.2], [40.8, 140.7], [33.6, 133.5]]
  const random = seededRandom(5)
  const rows = Array.from({ length: 45 }, (_, i) => {
    const [lat, lon] = line[i % line.length]
    return { station: `Station ${i + 1}`, lat: Math.round((lat + (random() - 0.5) * 0.8) * 1e3) / 1e3, lon: Math.round((lon + (random() - 0.5) * 0.8) * 1e3) / 1e3 }
  })
  return { columns: [col('station', 'string'), col('lat', 'float'), col('lon', 'float')], rows }
}
