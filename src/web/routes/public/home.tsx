export function meta() {
  return [{ title: 'Welcome' }];
}

// Placeholder: the public site (issue 4) writes this page.
export default function Page() {
  return (
    <div className="mx-auto max-w-5xl px-4 py-16">
      <h1 className="text-3xl font-bold">Welcome</h1>
    </div>
  );
}
