import type { AppPath } from '../paths';

export type ArtName = 'city' | 'growth' | 'house' | 'car' | 'shield' | 'coins' | 'phone' | 'leaf' | 'people' | 'building';

export interface Offer {
  name: string;
  figure: string;
  figureLabel: string;
  points: string[];
}

export interface Feature {
  title: string;
  text: string;
}

export interface ProductPage {
  path: AppPath;
  /** The page's own h1. */
  title: string;
  eyebrow: string;
  summary: string;
  art: ArtName;
  cta: string;
  intro: string[];
  offersTitle?: string;
  offers?: Offer[];
  featuresTitle?: string;
  features?: Feature[];
  stepsTitle?: string;
  steps?: string[];
  /** Risk or product disclosure shown in a bordered box; investment pages always have one. */
  disclosure: { title: string; paragraphs: string[] };
  related: AppPath[];
}
