import type { ReactNode } from 'react';
import type { ArtName } from '../../content/types';

// Our own decorative illustrations, drawn inline: no image request, nothing from another host.
const shapes: Record<ArtName, ReactNode> = {
  city: (
    <>
      <rect x="30" y="120" width="50" height="150" rx="4" fill="#acd3ea" />
      <rect x="90" y="70" width="60" height="200" rx="4" fill="#fff" />
      <rect x="160" y="150" width="45" height="120" rx="4" fill="#d6eaf5" />
      <rect x="215" y="100" width="55" height="170" rx="4" fill="#acd3ea" />
      {[0, 1, 2, 3, 4, 5].map((row) => (
        <g key={row} fill="#17507c" opacity=".6">
          <rect x="102" y={88 + row * 28} width="12" height="12" />
          <rect x="126" y={88 + row * 28} width="12" height="12" />
        </g>
      ))}
    </>
  ),
  growth: (
    <>
      <rect x="40" y="190" width="36" height="80" rx="4" fill="#acd3ea" />
      <rect x="96" y="150" width="36" height="120" rx="4" fill="#d6eaf5" />
      <rect x="152" y="110" width="36" height="160" rx="4" fill="#acd3ea" />
      <rect x="208" y="60" width="36" height="210" rx="4" fill="#fff" />
      <path d="M40 170 L110 125 L165 95 L250 35" stroke="#d99a1e" strokeWidth="8" fill="none" strokeLinecap="round" />
    </>
  ),
  house: (
    <>
      <path d="M150 40 L260 130 H40 Z" fill="#fff" />
      <rect x="62" y="130" width="176" height="140" fill="#d6eaf5" />
      <rect x="130" y="190" width="40" height="80" fill="#17507c" />
      <rect x="80" y="160" width="32" height="32" fill="#acd3ea" />
      <rect x="188" y="160" width="32" height="32" fill="#acd3ea" />
    </>
  ),
  car: (
    <>
      <path d="M40 200 Q50 150 100 145 L125 105 H205 L235 145 Q265 150 265 200 Z" fill="#fff" />
      <rect x="135" y="115" width="60" height="30" rx="4" fill="#acd3ea" />
      <circle cx="95" cy="210" r="26" fill="#0b2a44" stroke="#d6eaf5" strokeWidth="8" />
      <circle cx="215" cy="210" r="26" fill="#0b2a44" stroke="#d6eaf5" strokeWidth="8" />
    </>
  ),
  shield: (
    <>
      <path d="M150 30 L250 70 V150 Q250 230 150 270 Q50 230 50 150 V70 Z" fill="#fff" />
      <path d="M105 150 L140 185 L200 115" stroke="#17507c" strokeWidth="16" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </>
  ),
  coins: (
    <>
      {[0, 1, 2, 3].map((index) => (
        <ellipse key={index} cx="110" cy={240 - index * 26} rx="60" ry="18" fill={index % 2 ? '#d6eaf5' : '#fff'} stroke="#17507c" strokeWidth="3" />
      ))}
      {[0, 1, 2].map((index) => (
        <ellipse key={index} cx="200" cy={240 - index * 26} rx="55" ry="16" fill={index % 2 ? '#fff' : '#acd3ea'} stroke="#17507c" strokeWidth="3" />
      ))}
      <circle cx="215" cy="80" r="40" fill="#d99a1e" />
      <text x="215" y="95" textAnchor="middle" fontSize="44" fontWeight="700" fill="#0b2a44">
        $
      </text>
    </>
  ),
  phone: (
    <>
      <rect x="95" y="30" width="110" height="240" rx="18" fill="#fff" />
      <rect x="108" y="56" width="84" height="170" rx="4" fill="#d6eaf5" />
      <rect x="118" y="72" width="64" height="26" rx="4" fill="#17507c" />
      <rect x="118" y="110" width="64" height="10" rx="3" fill="#acd3ea" />
      <rect x="118" y="128" width="48" height="10" rx="3" fill="#acd3ea" />
      <rect x="118" y="146" width="56" height="10" rx="3" fill="#acd3ea" />
      <circle cx="150" cy="248" r="9" fill="#acd3ea" />
    </>
  ),
  leaf: (
    <>
      <path d="M150 270 V120" stroke="#d6eaf5" strokeWidth="8" strokeLinecap="round" />
      <path d="M150 130 Q70 110 60 40 Q130 50 150 130 Z" fill="#fff" />
      <path d="M150 130 Q230 110 240 40 Q170 50 150 130 Z" fill="#acd3ea" />
      <path d="M150 190 Q90 190 70 140 Q130 140 150 190 Z" fill="#d6eaf5" />
      <path d="M150 190 Q210 190 230 140 Q170 140 150 190 Z" fill="#fff" />
    </>
  ),
  people: (
    <>
      <circle cx="110" cy="100" r="36" fill="#fff" />
      <path d="M50 260 Q50 160 110 160 Q170 160 170 260 Z" fill="#fff" />
      <circle cx="195" cy="115" r="30" fill="#acd3ea" />
      <path d="M145 260 Q145 175 195 175 Q245 175 245 260 Z" fill="#acd3ea" />
    </>
  ),
  building: (
    <>
      <path d="M150 30 L260 85 H40 Z" fill="#fff" />
      {[0, 1, 2, 3].map((index) => (
        <rect key={index} x={62 + index * 50} y="95" width="26" height="140" fill="#d6eaf5" />
      ))}
      <rect x="40" y="240" width="220" height="26" fill="#fff" />
    </>
  ),
};

export function Art({ name, className = '' }: { name: ArtName; className?: string }) {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 300 300" className={className}>
      <circle cx="150" cy="150" r="140" fill="#ffffff" opacity=".08" />
      {shapes[name]}
    </svg>
  );
}
