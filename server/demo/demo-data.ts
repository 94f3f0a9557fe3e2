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

/**
 * Where the rest of the community lives (issue 20): the largest cities of the profile's city list, then big
 * cities members often come from, at the list's own coordinates, so a new member who picks one of them finds
 * people within 25 km. Six members each, half women and half men, all of whom look for the other.
 */
export const SPREAD_CITIES = [
  { city: 'Shanghai', country: 'China', lat: 31.2, lng: 121.5 },
  { city: 'Istanbul', country: 'Türkiye', lat: 41, lng: 28.9 },
  { city: 'Buenos Aires', country: 'Argentina', lat: -34.6, lng: -58.4 },
  { city: 'Mumbai', country: 'India', lat: 19.1, lng: 72.9 },
  { city: 'Mexico City', country: 'Mexico', lat: 19.4, lng: -99.1 },
  { city: 'Beijing', country: 'China', lat: 39.9, lng: 116.4 },
  { city: 'Karachi', country: 'Pakistan', lat: 24.9, lng: 67 },
  { city: 'Tianjin', country: 'China', lat: 39.1, lng: 117.2 },
  { city: 'Guangzhou', country: 'China', lat: 23.1, lng: 113.3 },
  { city: 'Delhi', country: 'India', lat: 28.7, lng: 77.2 },
  { city: 'Moscow', country: 'Russia', lat: 55.8, lng: 37.6 },
  { city: 'Shenzhen', country: 'China', lat: 22.5, lng: 114.1 },
  { city: 'Dhaka', country: 'Bangladesh', lat: 23.7, lng: 90.4 },
  { city: 'Seoul', country: 'South Korea', lat: 37.6, lng: 127 },
  { city: 'São Paulo', country: 'Brazil', lat: -23.5, lng: -46.6 },
  { city: 'Wuhan', country: 'China', lat: 30.6, lng: 114.3 },
  { city: 'Berlin', country: 'Germany', lat: 52.5, lng: 13.4 },
  { city: 'Paris', country: 'France', lat: 48.9, lng: 2.3 },
  { city: 'Madrid', country: 'Spain', lat: 40.4, lng: -3.7 },
  { city: 'Rome', country: 'Italy', lat: 41.9, lng: 12.5 },
  { city: 'New York City', country: 'United States', lat: 40.7, lng: -74 },
  { city: 'Los Angeles', country: 'United States', lat: 34.1, lng: -118.2 },
  { city: 'Toronto', country: 'Canada', lat: 43.7, lng: -79.4 },
  { city: 'Sydney', country: 'Australia', lat: -33.9, lng: 151.2 },
] as const;
export const MEMBERS_PER_SPREAD_CITY = 6;

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
  hue: number;
}

function getBirthday(random: () => number, today: Date): { birthday: string; age: number } {
  const age = 22 + Math.floor(random() * 24);
  // age years and 10 to 300 days ago: the whole-year age is exactly age whatever today is.
  const d = new Date(Date.UTC(today.getUTCFullYear() - age, today.getUTCMonth(), today.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - 10 - Math.floor(random() * 290));
  return { birthday: d.toISOString().slice(0, 10), age };
}

/**
 * count members; index is part of each e-mail so the addresses never collide. The last
 * SPREAD_CITIES x MEMBERS_PER_SPREAD_CITY (when count allows) live in the spread cities; the rest around London.
 */
export function generateDemoMembers(count: number, today = new Date(), seed = 20261122): DemoMember[] {
  const random = createRandom(seed);
  const members: DemoMember[] = [];
  const spreadCount = Math.min(count, SPREAD_CITIES.length * MEMBERS_PER_SPREAD_CITY);
  const spreadFrom = count - spreadCount;
  for (let i = 0; i < count; i++) {
    const spread = i >= spreadFrom;
    const roll = random();
    const gender = spread
      ? (i - spreadFrom) % 2 === 0
        ? 'woman'
        : 'man'
      : roll < 0.47
        ? 'woman'
        : roll < 0.94
          ? 'man'
          : 'non-binary';
    const first = pick(random, gender === 'woman' ? WOMEN : gender === 'man' ? MEN : NEUTRAL);
    const last = pick(random, LAST);
    const lookRoll = random();
    const looking_for =
      gender === 'non-binary' || lookRoll < 0.25
        ? ['woman', 'man', 'non-binary']
        : lookRoll < 0.85 || spread
          ? [gender === 'woman' ? 'man' : 'woman']
          : [gender];
    const london = pick(random, DEMO_CITIES);
    const place = spread ? SPREAD_CITIES[Math.floor((i - spreadFrom) / MEMBERS_PER_SPREAD_CITY)]! : london;
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
      hue: Math.floor(random() * 360),
    });
  }
  return members;
}
