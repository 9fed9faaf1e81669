-- Sightline's demo dataset: a small online shop across four regions, about 90,000 rows in all.
-- Values come from hash() of row numbers, so every installation gets the same data.

create table regions as
select * from (values
  ('NA', 'North America'), ('EU', 'Europe'), ('APAC', 'Asia Pacific'), ('LATAM', 'Latin America')
) t(code, name);

create table cities as
select row_number() over () as id, * from (values
  ('New York', 'US', 'United States', 'NA', 40.7128, -74.0060),
  ('San Francisco', 'US', 'United States', 'NA', 37.7749, -122.4194),
  ('Chicago', 'US', 'United States', 'NA', 41.8781, -87.6298),
  ('Austin', 'US', 'United States', 'NA', 30.2672, -97.7431),
  ('Toronto', 'CA', 'Canada', 'NA', 43.6532, -79.3832),
  ('London', 'GB', 'United Kingdom', 'EU', 51.5074, -0.1278),
  ('Berlin', 'DE', 'Germany', 'EU', 52.5200, 13.4050),
  ('Paris', 'FR', 'France', 'EU', 48.8566, 2.3522),
  ('Madrid', 'ES', 'Spain', 'EU', 40.4168, -3.7038),
  ('Stockholm', 'SE', 'Sweden', 'EU', 59.3293, 18.0686),
  ('Warsaw', 'PL', 'Poland', 'EU', 52.2297, 21.0122),
  ('Tokyo', 'JP', 'Japan', 'APAC', 35.6762, 139.6503),
  ('Osaka', 'JP', 'Japan', 'APAC', 34.6937, 135.5023),
  ('Seoul', 'KR', 'South Korea', 'APAC', 37.5665, 126.9780),
  ('Busan', 'KR', 'South Korea', 'APAC', 35.1796, 129.0756),
  ('Sydney', 'AU', 'Australia', 'APAC', -33.8688, 151.2093),
  ('Singapore', 'SG', 'Singapore', 'APAC', 1.3521, 103.8198),
  ('São Paulo', 'BR', 'Brazil', 'LATAM', -23.5505, -46.6333),
  ('Mexico City', 'MX', 'Mexico', 'LATAM', 19.4326, -99.1332),
  ('Buenos Aires', 'AR', 'Argentina', 'LATAM', -34.6037, -58.3816)
) t(city, country_code, country, region_code, latitude, longitude);

create table customers as
select
  i as id,
  ['Ada', 'Ben', 'Chloé', 'Dmitri', 'Emma', 'Farah', 'Gustavo', 'Hana', 'Ivan', 'Jia', 'Kofi', 'Lena', 'Mateo',
   'Nora', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Yuki'][1 + (hash(i, 'first') % 20)::int] || ' ' ||
  ['Almeida', 'Brown', 'Chen', 'Dubois', 'Eriksson', 'Fischer', 'García', 'Hoang', 'Ivanova', 'Jensen', 'Kim',
   'López', 'Müller', 'Nakamura', 'Okafor', 'Park', 'Rossi', 'Smith', 'Tanaka', 'Weber'][1 + (hash(i, 'last') % 20)::int] as name,
  'customer' || i || '@example.com' as email,
  1 + (hash(i, 'city') % 20)::int as city_id,
  ['Consumer', 'Consumer', 'Consumer', 'Small Business', 'Small Business', 'Enterprise'][1 + (hash(i, 'segment') % 6)::int] as segment,
  date '2022-01-01' + (hash(i, 'signup') % 1400)::int as signup_date
from range(1, 2001) r(i);

create table products as
select
  i as id,
  ['Aurora', 'Breeze', 'Cascade', 'Drift', 'Ember', 'Fjord', 'Glacier', 'Harbor', 'Ion', 'Juniper'][1 + ((i - 1) % 10)::int] || ' ' ||
  ['Headphones', 'Backpack', 'Desk Lamp', 'Water Bottle', 'Keyboard', 'Jacket'][1 + ((i - 1) // 10)::int] as name,
  ['Audio', 'Bags', 'Home', 'Outdoor', 'Computing', 'Apparel'][1 + ((i - 1) // 10)::int] as category,
  round(9.99 + (hash(i, 'price') % 24000) / 100.0, 2)::decimal(10, 2) as unit_price
from range(1, 61) r(i);

create table orders as
select
  i as id,
  1 + (hash(i, 'customer') % 2000)::int as customer_id,
  -- more orders in later months: the shop is growing
  timestamp '2023-01-01' + to_seconds(floor((u + sqrt(u)) / 2 * 94608000)::bigint) as ordered_at,
  ['delivered', 'delivered', 'delivered', 'delivered', 'delivered', 'delivered', 'shipped', 'shipped', 'cancelled',
   'returned'][1 + (hash(i, 'status') % 10)::int] as status,
  ['web', 'web', 'web', 'mobile', 'mobile', 'store', 'partner'][1 + (hash(i, 'channel') % 7)::int] as channel
from (select i, (hash(i, 'when') % 1000000) / 1000000.0 as u from range(1, 25001) r(i));

create table order_items as
select
  o.id as order_id,
  n as line,
  1 + (hash(o.id, n, 'product') % 60)::int as product_id,
  1 + (hash(o.id, n, 'qty') % 4)::int as quantity
from orders o, range(1, 5) r(n)
where n = 1 or hash(o.id, n, 'more') % 3 = 0;

alter table order_items add column unit_price decimal(10, 2);
update order_items set unit_price = p.unit_price from products p where p.id = order_items.product_id;

-- One wide view for first questions: revenue by day, region, country, category, channel.
create view order_lines as
select o.id as order_id, o.ordered_at, cast(o.ordered_at as date) as order_date, o.status, o.channel,
       c.id as customer_id, c.name as customer, c.segment, ci.city, ci.country, ci.country_code, r.name as region,
       ci.latitude, ci.longitude, p.name as product, p.category, i.quantity, i.unit_price,
       i.quantity * i.unit_price as revenue
from orders o
join customers c on c.id = o.customer_id
join cities ci on ci.id = c.city_id
join regions r on r.code = ci.region_code
join order_items i on i.order_id = o.id
join products p on p.id = i.product_id;
