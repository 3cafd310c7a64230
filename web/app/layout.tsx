import type { ReactNode } from 'react';
import './globals.css';
import './cards.css';

export const metadata = { title: 'Atelier', description: 'People and a creative agent, working together.' };
export const viewport = { width: 'device-width', initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
