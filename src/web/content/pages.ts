import type { AppPath } from '../paths';
import { productPages } from './products';

/** Link labels for every marketing page, for "related" links. */
export const allPageTitles: Partial<Record<AppPath, string>> = {
  '/': 'Home',
  '/contact': 'Contact Us',
  '/about-us': 'About Us',
  '/ways-to-bank': 'Ways to Bank',
  '/privacy-policy': 'Privacy Policy',
  ...Object.fromEntries(productPages.map((page) => [page.path, page.title])),
};
