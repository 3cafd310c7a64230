import { Suspense } from 'react';
import { SignIn } from '../../components/SignIn';

export const metadata = { title: 'Sign in · Atelier' };

export default function SignInPage() {
  return (
    <main className="signin" id="main">
      <Suspense>
        <SignIn />
      </Suspense>
    </main>
  );
}
