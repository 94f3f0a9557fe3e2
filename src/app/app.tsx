// The app shell: routes are added here by each feature.
import { BrowserRouter, Route, Routes } from 'react-router-dom';

function Home() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-3xl font-bold text-rose-600">HeartSync</h1>
      <p className="mt-2">AI-powered premium dating</p>
    </main>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <Routes>
        <Route path="*" element={<Home />} />
      </Routes>
    </BrowserRouter>
  );
}
