/** Like the demo data source's orders by day: a date, two numbers and a text column (the Visualization Editor's tests). */
export const ORDERS_BY_DAY = {
  columns: [{ name: 'day', type: 'date' }, { name: 'orders', type: 'integer' }, { name: 'revenue', type: 'float' }, { name: 'region', type: 'string' }],
  rows: [
    { day: '2024-03-01', orders: 12, revenue: 340.5, region: 'North' },
    { day: '2024-03-02', orders: 18, revenue: 512.25, region: 'South' },
    { day: '2024-03-03', orders: 9, revenue: 260, region: 'North' },
    { day: '2024-03-04', orders: 22, revenue: 701.75, region: 'East' },
    { day: '2024-03-05', orders: 15, revenue: 430, region: 'West' },
  ],
}
