/*
 * A month of store sales for the demo lab: order lines from the web stores over
 * the last 30 days, at the prices in force on each day, in US dollars and (from
 * the EU store) euros. Deterministic: the same `now` gives the same lines.
 */

type At = (daysAgo: number) => string;

interface Product {
  plant: string;
  product: string;
  variant: string;
  currency: 'USD' | 'EUR';
  /** Unit price by days ago: the price changes of the demo's price events. */
  price: (daysAgo: number) => string;
  /** Sells every `every` days, `base` units and a little more. */
  every: number;
  base: number;
}

const PRODUCTS: readonly Product[] = [
  {
    plant: 'monstera',
    product: 'sp_1001',
    variant: 'sv_1001_plantlet',
    currency: 'USD',
    price: (daysAgo) => (daysAgo > 30 ? '39.00' : '45.00'),
    every: 2,
    base: 1,
  },
  {
    plant: 'alocasia',
    product: 'sp_1002',
    variant: 'sv_1002_plantlet',
    currency: 'USD',
    price: (daysAgo) => (daysAgo > 14 ? '22.00' : '24.00'),
    every: 1,
    base: 2,
  },
  {
    plant: 'philodendron',
    product: 'sp_1003',
    variant: 'sv_1003_rooted',
    currency: 'USD',
    price: () => '32.00',
    every: 1,
    base: 1,
  },
  {
    plant: 'philodendron',
    product: 'sp_2003',
    variant: 'sv_2003_rooted_eu',
    currency: 'EUR',
    price: () => '29.90',
    every: 3,
    base: 1,
  },
  {
    plant: 'anthurium',
    product: 'sp_1004',
    variant: 'sv_1004_plantlet',
    currency: 'USD',
    price: (daysAgo) => (daysAgo > 7 ? '79.00' : '85.00'),
    every: 7,
    base: 1,
  },
  {
    plant: 'banana',
    product: 'sp_1005',
    variant: 'sv_1005_tray50',
    currency: 'USD',
    price: () => '6.50',
    every: 3,
    base: 12,
  },
];

/** How many store products the demo sells (each gets a product link id). */
export const DEMO_PRODUCT_COUNT = PRODUCTS.length;

/**
 * Order lines of the last 30 days, plus one free replacement plantlet (a line
 * without a unit price: it counts in units but adds no revenue).
 */
export function monthOfSales(
  plant: (key: string) => string,
  productLinks: readonly string[],
  at: At,
) {
  const lines = [];
  for (let daysAgo = 30; daysAgo >= 1; daysAgo--) {
    for (const [index, product] of PRODUCTS.entries()) {
      if ((daysAgo + index) % product.every !== 0) continue;
      lines.push({
        plant_id: plant(product.plant),
        product_link_id: productLinks[index]!,
        store_product_id: product.product,
        store_variant_id: product.variant,
        quantity: product.base + ((daysAgo * 7 + index * 3) % 4),
        unit_price: { amount: product.price(daysAgo), currency: product.currency },
        // Spread over the day, so lines of one day keep a fixed order.
        occurred_at: at(daysAgo - 0.1 * index),
      });
    }
  }
  lines.push({
    plant_id: plant('monstera'),
    product_link_id: productLinks[0]!,
    store_product_id: PRODUCTS[0]!.product,
    store_variant_id: PRODUCTS[0]!.variant,
    quantity: 1,
    unit_price: null,
    occurred_at: at(12.5),
  });
  return lines;
}
