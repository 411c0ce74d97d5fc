/** The title of a sign-up step after the account, and the line that says what it is for. */
export function StepHeading({ title, lead }: { title: string; lead?: string }) {
  return (
    <>
      <h2 className="h4 mb-1">{title}</h2>
      {lead && <p className="text-muted">{lead}</p>}
    </>
  );
}
