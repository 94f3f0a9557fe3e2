// Synthetic demo members: deterministic names, cities, profile fields and preferences (no real people).

/** A small deterministic generator, so every empty database gets the same community. */
export function createRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function pickSome<T>(random: () => number, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count && pool.length > 0)
    out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  return out;
}

const WOMEN = [
  'Amelia',
  'Olivia',
  'Isla',
  'Ava',
  'Mia',
  'Sofia',
  'Grace',
  'Lily',
  'Freya',
  'Ella',
  'Chloe',
  'Nora',
  'Emma',
  'Zara',
  'Leah',
  'Maya',
  'Ruby',
  'Alice',
  'Hannah',
  'Clara',
  'Elena',
  'Lucia',
  'Ines',
  'Noor',
];
const MEN = [
  'Oliver',
  'Noah',
  'Leo',
  'Arthur',
  'Oscar',
  'Theo',
  'Jack',
  'Henry',
  'Lucas',
  'Finn',
  'Adam',
  'Samuel',
  'Mateo',
  'Elias',
  'Felix',
  'Jonah',
  'Omar',
  'Ravi',
  'Daniel',
  'Hugo',
  'Luca',
  'Tom',
  'Max',
  'Kai',
];
const NEUTRAL = ['Alex', 'Sam', 'Robin', 'Charlie', 'Jordan', 'Riley', 'Quinn', 'Sasha'];
const LAST = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Wilson',
  'Evans',
  'Martin',
  'Dubois',
  'Schmidt',
  'Rossi',
  'Garcia',
  'Novak',
  'Khan',
  'Patel',
  'Murphy',
  'Walsh',
  'Fischer',
  'Moreau',
  'Jansen',
  'Silva',
];

/** Coordinates already snapped to the 0.1-degree grid the profiles table keeps. */
export const DEMO_CITIES = [
  { city: 'London', country: 'United Kingdom', lat: 51.5, lng: -0.1 },
  { city: 'London', country: 'United Kingdom', lat: 51.5, lng: -0.1 },
  { city: 'London', country: 'United Kingdom', lat: 51.6, lng: -0.2 },
  { city: 'Croydon', country: 'United Kingdom', lat: 51.4, lng: -0.1 },
  { city: 'Reading', country: 'United Kingdom', lat: 51.5, lng: -1.0 },
  { city: 'Cambridge', country: 'United Kingdom', lat: 52.2, lng: 0.1 },
  { city: 'Brighton', country: 'United Kingdom', lat: 50.8, lng: -0.1 },
  { city: 'Oxford', country: 'United Kingdom', lat: 51.8, lng: -1.3 },
  { city: 'Paris', country: 'France', lat: 48.9, lng: 2.4 },
] as const;

const INTERESTS = [
  'hiking',
  'cooking',
  'travel',
  'music',
  'reading',
  'yoga',
  'photography',
  'films',
  'running',
  'board games',
  'gardening',
  'climbing',
  'coffee',
  'art',
  'dancing',
  'cycling',
  'podcasts',
  'wine',
  'football',
];
const CAREERS = [
  ['Nurse', 'Healthcare'],
  ['Software developer', 'Technology'],
  ['Teacher', 'Education'],
  ['Architect', 'Construction'],
  ['Chef', 'Hospitality'],
  ['Designer', 'Creative'],
  ['Accountant', 'Finance'],
  ['Researcher', 'Science'],
  ['Lawyer', 'Legal'],
  ['Photographer', 'Creative'],
  ['Engineer', 'Manufacturing'],
  ['Marketing lead', 'Media'],
] as const;
const EDUCATION = [
  'high-school',
  'trade-school',
  'some-college',
  'bachelor',
  'bachelor',
  'master',
  'doctorate',
];
const GOALS = ['long-term', 'long-term', 'marriage', 'short-term', 'friendship', 'casual', 'not-sure'];
const STATUSES = ['single', 'single', 'single', 'divorced', 'separated', 'widowed'];
const LANGUAGES = [
  'English',
  'French',
  'Spanish',
  'German',
  'Italian',
  'Polish',
  'Hindi',
  'Arabic',
  'Portuguese',
];
const BIOS = [
  'Weekend hiker, weekday coffee snob. Looking for someone to share long walks and longer conversations.',
  'I cook more than I should and travel whenever I can. Tell me your favourite place you have been.',
  'Bookshop wanderer and amateur photographer. Kindness matters most to me.',
  'Happiest outdoors or at a gig. I laugh easily and I am always up for trying something new.',
  'Calm, curious and a little nerdy. Board game nights and Sunday markets are my thing.',
  'Runner, reader, terrible dancer. Hoping to meet someone genuine.',
];

export interface DemoMember {
  name: string;
  email: string;
  gender: 'woman' | 'man' | 'non-binary';
  birthday: string;
  looking_for: string[];
  relationship_goals: string;
  relationship_status: string;
  city: string;
  country: string;
  location_lat: number;
  location_lng: number;
  bio: string;
  interests: string[];
  career: string;
  industry: string;
  education_level: string;
  languages: string[];
  height: number;
  min_age: number;
  max_age: number;
  initials: string;
  hue: number;
}

function getBirthday(random: () => number, today: Date): { birthday: string; age: number } {
  const age = 22 + Math.floor(random() * 24);
  // age years and 10 to 300 days ago: the whole-year age is exactly age whatever today is.
  const d = new Date(Date.UTC(today.getUTCFullYear() - age, today.getUTCMonth(), today.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - 10 - Math.floor(random() * 290));
  return { birthday: d.toISOString().slice(0, 10), age };
}

/** count members; index is part of each e-mail so the addresses never collide. */
export function generateDemoMembers(count: number, today = new Date(), seed = 20261122): DemoMember[] {
  const random = createRandom(seed);
  const members: DemoMember[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    const gender = roll < 0.47 ? 'woman' : roll < 0.94 ? 'man' : 'non-binary';
    const first = pick(random, gender === 'woman' ? WOMEN : gender === 'man' ? MEN : NEUTRAL);
    const last = pick(random, LAST);
    const lookRoll = random();
    const looking_for =
      gender === 'non-binary' || lookRoll < 0.25
        ? ['woman', 'man', 'non-binary']
        : lookRoll < 0.85
          ? [gender === 'woman' ? 'man' : 'woman']
          : [gender];
    const place = pick(random, DEMO_CITIES);
    const [career, industry] = pick(random, CAREERS);
    const { birthday, age } = getBirthday(random, today);
    members.push({
      name: `${first} ${last}`,
      email: `member${String(i + 1).padStart(3, '0')}@demo.heartsync.invalid`,
      gender,
      birthday,
      looking_for,
      relationship_goals: pick(random, GOALS),
      relationship_status: pick(random, STATUSES),
      city: place.city,
      country: place.country,
      location_lat: place.lat,
      location_lng: place.lng,
      bio: pick(random, BIOS),
      interests: pickSome(random, INTERESTS, 3 + Math.floor(random() * 4)),
      career,
      industry,
      education_level: pick(random, EDUCATION),
      languages: ['English', ...pickSome(random, LANGUAGES.slice(1), Math.floor(random() * 2))],
      height: Math.round(155 + random() * 40),
      min_age: Math.max(18, age - 8 - Math.floor(random() * 4)),
      max_age: Math.min(120, age + 8 + Math.floor(random() * 6)),
      initials: `${first[0]}${last[0]}`,
      hue: Math.floor(random() * 360),
    });
  }
  return members;
}
