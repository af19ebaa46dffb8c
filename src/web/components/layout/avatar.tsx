export function Avatar({ firstName, lastName, url, size = 40 }: { firstName: string; lastName: string; url?: string | null; size?: number }) {
  const initials = `${firstName[0] ?? ''}${lastName[0] ?? ''}`.toUpperCase();
  if (url) return <img src={url} alt="" width={size} height={size} className="rounded-full object-cover" style={{ width: size, height: size }} />;
  return (
    <span
      aria-hidden="true"
      className="flex items-center justify-center rounded-full bg-brand-700 font-semibold text-white"
      style={{ width: size, height: size }}
    >
      {initials}
    </span>
  );
}
