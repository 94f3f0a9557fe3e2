// The location picker: a combobox (WAI-ARIA 1.2 pattern) over the offline city list, which loads on first use.
// No GPS: the member picks a city, and only the city and its grid position (about 11 km) are stored.
import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { findCities, getCityLabel, loadCityIndex, type City, type CityIndex } from './cities.ts';

export interface PickedCity {
  city: string;
  state: string;
  country: string;
  location_lat: number | null;
  location_lng: number | null;
}

export function CityPicker({
  value,
  onPick,
  error,
}: {
  value: PickedCity;
  onPick: (next: PickedCity) => void;
  error?: string | undefined;
}) {
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [index, setIndex] = useState<CityIndex>();
  const [loadState, setLoadState] = useState<'idle' | 'loading' | 'failed'>('idle');

  function load() {
    if (index || loadState === 'loading') return;
    setLoadState('loading');
    loadCityIndex().then(
      (i) => {
        setIndex(i);
        setLoadState('idle');
      },
      () => setLoadState('failed'),
    );
  }

  const results = useMemo(() => (index ? findCities(index, query) : []), [index, query]);
  const expanded = open && results.length > 0;
  useEffect(() => setActive(-1), [query]);

  function pick(c: City) {
    onPick({ city: c.city, state: c.region, country: c.country, location_lat: c.lat, location_lng: c.lng });
    setQuery('');
    setOpen(false);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      load();
      setOpen(true);
      if (!results.length) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) =>
        a < 0 && step < 0 ? results.length - 1 : (a + step + results.length) % results.length,
      );
    } else if (e.key === 'Enter') {
      const c = expanded ? results[active] : undefined;
      if (c) {
        e.preventDefault();
        pick(c);
      }
    } else if (e.key === 'Escape') {
      if (expanded) setOpen(false);
      else setQuery('');
    }
  }

  let status = '';
  if (loadState === 'loading') status = 'Loading the city list...';
  else if (loadState === 'failed') status = 'The city list could not be loaded. Please reload the page.';
  else if (index && query.trim() && open)
    status = results.length
      ? `${results.length} ${results.length === 1 ? 'city' : 'cities'} found. Use the arrow keys to choose.`
      : 'No city found. Try another spelling, or a larger city nearby.';

  return (
    <div className="space-y-1">
      <label htmlFor={inputId} className="text-sm font-medium">
        City
      </label>
      <div className="relative">
        <input
          id={inputId}
          className="input mt-1 w-full"
          role="combobox"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
          aria-describedby={hintId}
          autoComplete="off"
          value={query}
          placeholder={value.city ? getCityLabel({ ...value, region: value.state }) : 'Search a city'}
          onFocus={load}
          onChange={(e) => {
            load();
            setQuery(e.target.value);
            setOpen(true);
          }}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label="Cities"
          hidden={!expanded}
          className="absolute z-10 mt-1 max-h-72 w-full overflow-auto rounded-lg border border-border bg-card shadow"
        >
          {results.map((c, i) => (
            <li
              key={`${c.city}|${c.region}|${c.country}|${c.lat}|${c.lng}`}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={`cursor-pointer px-3 py-1 ${i === active ? 'bg-subtle font-medium' : 'hover:bg-subtle'}`}
              // Keep the focus in the input, so the list does not close before the click lands.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(c)}
            >
              {getCityLabel(c)}
            </li>
          ))}
        </ul>
      </div>
      <p id={hintId} className="text-xs text-muted">
        Others see your city and a distance band, never your position. No GPS is used. City list from{' '}
        <a className="link" href="https://www.geonames.org/" target="_blank" rel="noopener noreferrer">
          GeoNames
          <span className="sr-only"> (opens in a new tab)</span>
        </a>{' '}
        (CC BY 4.0).
      </p>
      <p role="status" className="text-sm text-muted">
        {status}
      </p>
      {value.city && (
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <span>Selected: {getCityLabel({ ...value, region: value.state })}</span>
          <button
            type="button"
            className="btn-ghost px-1 text-xs"
            onClick={() =>
              onPick({ city: '', state: '', country: '', location_lat: null, location_lng: null })
            }
          >
            Remove city
          </button>
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
