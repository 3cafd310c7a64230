// Placeholder until the web app issue: proves the Next.js toolchain builds offline.
export default function Home() {
  return (
    <main style={{ maxWidth: '40rem', margin: '4rem auto', lineHeight: 1.5, padding: '0 1rem' }}>
      <h1>Atelier</h1>
      <p>
        The web app is on its way. The GraphQL API is served at <code>/graphql</code> by <code>npm start</code>.
      </p>
    </main>
  );
}
