import { ChevronLeft, ChevronRight, Pause, Play } from 'lucide-react';
import { useEffect, useState } from 'react';
import { heroHeightPx } from '../../content/figures';
import { SLIDE_AUTOPLAY_MS, SLIDE_FADE_MS, type Slide } from '../../content/home';
import { Art } from './art';
import { ctaClass } from './hero';
import { PageLink } from '../ui/page-link';

/**
 * The home page's fading hero (spec sections 2 and 9): every slide stacked in one grid cell and
 * faded with a CSS opacity transition. It advances every 7 s and loops, stops while the pointer
 * is over it or keyboard focus is inside it, when the visitor presses Pause, and never moves by
 * itself under prefers-reduced-motion. Hidden slides are inert, so their buttons take no focus.
 */
export function HeroSlider({ slides, heading }: { slides: Slide[]; heading: string }) {
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [stopped, setStopped] = useState(false);
  // null until hydrated: the prerendered HTML cannot know the visitor's motion preference.
  const [reducedMotion, setReducedMotion] = useState<boolean | null>(null);
  const count = slides.length;

  useEffect(() => {
    const query = window.matchMedia('(prefers-reduced-motion: reduce)');
    const update = () => setReducedMotion(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);

  const autoplay = count > 1 && !hovered && !focused && !stopped && reducedMotion === false;
  useEffect(() => {
    if (!autoplay) return;
    // Keyed on the index, so a manual change restarts the 7 s wait.
    const timer = window.setTimeout(() => setIndex((current) => (current + 1) % count), SLIDE_AUTOPLAY_MS);
    return () => window.clearTimeout(timer);
  }, [autoplay, index, count]);

  if (count === 0) {
    return (
      <section className="flex items-center bg-gradient-to-br from-brand-900 to-brand-700 text-white" style={{ minHeight: heroHeightPx }}>
        <div className="mx-auto max-w-7xl px-4">
          <h1 className="text-5xl font-extrabold">Welcome</h1>
          <p className="mt-4 text-lg text-slate-100">{heading}</p>
        </div>
      </section>
    );
  }

  const go = (next: number) => setIndex(((next % count) + count) % count);

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Highlights"
      data-testid="hero-slider"
      data-autoplay={reducedMotion === null ? undefined : autoplay ? 'on' : 'off'}
      className="relative overflow-hidden bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 text-white"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <h1 className="sr-only">{heading}</h1>
      <div className="grid" aria-live={autoplay ? 'off' : 'polite'}>
        {slides.map((slide, slideIndex) => {
          const active = slideIndex === index;
          return (
            <div
              key={slide.title}
              role="group"
              aria-roledescription="slide"
              aria-label={`${slideIndex + 1} of ${count}`}
              aria-hidden={!active}
              inert={!active}
              data-slide-index={slideIndex}
              data-active={active ? 'true' : 'false'}
              className={`[grid-area:1/1] transition-opacity ease-in-out ${active ? 'z-10 opacity-100' : 'z-0 opacity-0'}`}
              style={{ transitionDuration: `${SLIDE_FADE_MS}ms`, minHeight: heroHeightPx }}
            >
              <div
                className="mx-auto grid h-full max-w-7xl items-center gap-8 px-4 pb-24 pt-10 md:grid-cols-[3fr_2fr] md:pt-14"
                style={{ minHeight: heroHeightPx }}
              >
                <div>
                  <h2 className="text-4xl font-extrabold leading-tight sm:text-5xl">{slide.title}</h2>
                  <p className="mt-5 max-w-xl text-lg text-slate-100">{slide.text}</p>
                  <PageLink to="/signin" className={`${ctaClass} mt-8`}>
                    {slide.button}
                  </PageLink>
                </div>
                {slide.sideCard ? (
                  <div className="grid grid-cols-2 items-center gap-x-4 rounded-2xl bg-white p-5 text-slate-900 shadow-xl md:block md:max-w-xs md:p-6">
                    <p className="text-sm font-bold tracking-widest text-brand-700">{slide.sideCard.kicker}</p>
                    <p className="text-4xl font-extrabold md:text-5xl">{slide.sideCard.figure}</p>
                    <PageLink
                      to="/signin"
                      className="col-start-2 row-span-2 row-start-1 inline-flex w-full items-center justify-center rounded-md bg-brand-700 px-3 py-3 md:mt-4 md:px-4 text-sm font-bold tracking-wide text-white hover:bg-brand-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2"
                    >
                      {slide.sideCard.button}
                    </PageLink>
                    <p className="col-span-2 mt-4 border-t border-slate-200 pt-3 md:mt-5 md:pt-4">
                      <span className="block text-2xl font-extrabold text-brand-800 md:text-3xl">{slide.sideCard.savings}</span>
                      <span className="text-sm text-slate-700">{slide.sideCard.savingsLabel}</span>
                    </p>
                  </div>
                ) : (
                  <Art name={slide.art} className="mx-auto hidden h-72 w-72 md:block" />
                )}
              </div>
            </div>
          );
        })}
      </div>
      <div className="absolute inset-x-0 bottom-6 z-20 flex items-center justify-center gap-3">
        <button
          type="button"
          onClick={() => go(index - 1)}
          className="rounded-full bg-white/15 p-2 hover:bg-white/30 focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
          aria-label="Previous slide"
        >
          <ChevronLeft aria-hidden="true" className="h-5 w-5" />
        </button>
        {slides.map((slide, slideIndex) => (
          <button
            key={slide.title}
            type="button"
            onClick={() => go(slideIndex)}
            aria-label={`Show slide ${slideIndex + 1}: ${slide.title}`}
            aria-current={slideIndex === index ? 'true' : undefined}
            className="flex h-6 w-6 items-center justify-center rounded-full focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
          >
            <span aria-hidden="true" className={`block h-3 w-3 rounded-full border-2 border-white ${slideIndex === index ? 'bg-white' : 'bg-transparent'}`} />
          </button>
        ))}
        <button
          type="button"
          onClick={() => go(index + 1)}
          className="rounded-full bg-white/15 p-2 hover:bg-white/30 focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
          aria-label="Next slide"
        >
          <ChevronRight aria-hidden="true" className="h-5 w-5" />
        </button>
        <button
          type="button"
          onClick={() => setStopped((value) => !value)}
          className="ml-2 rounded-full bg-white/15 p-2 hover:bg-white/30 focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
          aria-label={stopped ? 'Play slideshow' : 'Pause slideshow'}
        >
          {stopped ? <Play aria-hidden="true" className="h-5 w-5" /> : <Pause aria-hidden="true" className="h-5 w-5" />}
        </button>
      </div>
    </section>
  );
}
