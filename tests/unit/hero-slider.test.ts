import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';

// The build defines these; the slider's content module reads the bank name at import time.
(globalThis as Record<string, unknown>).__BANK_NAME__ = 'Test Bank';
(globalThis as Record<string, unknown>).__DEMO_MODE__ = true;

let HeroSlider: typeof import('../../src/web/components/marketing/hero-slider').HeroSlider;
let slides: typeof import('../../src/web/content/home').slides;
beforeAll(async () => {
  ({ HeroSlider } = await import('../../src/web/components/marketing/hero-slider'));
  ({ slides } = await import('../../src/web/content/home'));
});

const render = (list: typeof slides) =>
  renderToStaticMarkup(createElement(MemoryRouter, null, createElement(HeroSlider, { slides: list, heading: 'Welcome to Test Bank' })));

describe('home hero slider (prerendered HTML)', () => {
  it("shows a 'Welcome' heading when there are no slides", () => {
    const html = render([]);
    expect(html).toContain('<h1 class="text-5xl font-extrabold">Welcome</h1>');
    expect(html).not.toContain('aria-roledescription="carousel"');
  });

  it('renders the three spec slides, the first one visible and the others inert', () => {
    expect(slides.map((slide) => [slide.title, slide.button])).toEqual([
      ['Private Banking', 'Get Started'],
      ['Simplified Investment', 'Create Account'],
      ['Secure Digital Banking', 'Get Started'],
    ]);
    const html = render(slides);
    expect(html.match(/aria-roledescription="slide"/g)).toHaveLength(3);
    expect(html.match(/data-active="true"/g)).toHaveLength(1);
    expect(html).toMatch(/data-slide-index="0" data-active="true"/);
    expect(html.match(/inert=""/g)).toHaveLength(2);
    expect(html).toContain('transition-duration:1000ms');
    // Every slide button and the side card's button lead to /signin.
    expect(html.match(/href="\/signin"/g)).toHaveLength(4);
    expect(html).toContain('STARTING AT');
    expect(html).toContain('$144/yr');
    expect(html).toContain('INTERNET BANKING');
  });
});
