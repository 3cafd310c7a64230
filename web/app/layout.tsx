import type { ReactNode } from 'react';

export const metadata = { title: 'Atelier', description: 'People and a creative agent, working together.' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', margin: 0, background: '#faf9f7', color: '#1d1b18' }}>
        {children}
      </body>
    </html>
  );
}
