import { describe, expect, it } from 'vitest';
import { candidateClasses, pruneCss, requiredClasses } from '../../scripts/optimize-html';

describe('requiredClasses', () => {
  it("reads Tailwind's escaped class names and ignores those inside functional pseudo-classes", () => {
    expect(requiredClasses('.md\\:grid-cols-\\[3fr_2fr\\]')).toEqual(['md:grid-cols-[3fr_2fr]']);
    expect(requiredClasses('.hover\\:bg-brand-700:hover')).toEqual(['hover:bg-brand-700']);
    expect(requiredClasses('.w-1\\/2')).toEqual(['w-1/2']);
    expect(requiredClasses('.\\32 xl\\:p-4')).toEqual(['2xl:p-4']);
    expect(requiredClasses('.group:hover .group-hover\\:underline')).toEqual(['group', 'group-hover:underline']);
    expect(requiredClasses('.space-y-5 > :not(:last-child)')).toEqual(['space-y-5']);
    expect(requiredClasses(':where(.dark) .x')).toEqual(['x']);
    expect(requiredClasses('html, :host')).toEqual([]);
  });
});

describe('candidateClasses', () => {
  it('takes the class attributes of the HTML and every quoted token of the scripts', () => {
    const names = candidateClasses('<div class="p-4  text-sm"><span class="md:flex"></span></div>', [
      'const a="bg-red-500 hidden",b=`ring-2`;x({open:"rotate-180"})',
    ]);
    for (const name of ['p-4', 'text-sm', 'md:flex', 'bg-red-500', 'hidden', 'ring-2', 'rotate-180']) expect(names.has(name), name).toBe(true);
    expect(names.has('underline')).toBe(false);
  });
});

describe('pruneCss', () => {
  const css = [
    '@layer theme, base, components, utilities;',
    '@layer base { *, ::before { box-sizing: border-box; } html { line-height: 1.5; } }',
    '@layer utilities { .p-4 { padding: 1rem; } .underline { text-decoration: underline; } .hidden, .md\\:flex { display: none; }',
    '@media (width >= 48rem) { .md\\:hidden { display: none; } } }',
    '@keyframes spin { to { transform: rotate(360deg); } }',
  ].join('\n');

  it("keeps the rules the page's classes can match, element rules, keyframes and layer order; drops the rest and empty blocks", () => {
    const pruned = pruneCss(css, new Set(['p-4', 'md:flex']));
    expect(pruned).toContain('@layer theme, base, components, utilities;');
    expect(pruned).toContain('box-sizing: border-box');
    expect(pruned).toContain('html { line-height: 1.5; }');
    expect(pruned).toContain('.p-4 { padding: 1rem; }');
    // A rule with several selectors keeps only those that can match.
    expect(pruned).toContain('.md\\:flex { display: none; }');
    expect(pruned).not.toContain('.hidden');
    expect(pruned).not.toContain('underline');
    // The @media block had only an unused rule: it goes.
    expect(pruned).not.toContain('@media');
    expect(pruned).toContain('@keyframes spin');
  });
});
