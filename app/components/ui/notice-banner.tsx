import type { Notice } from "~/lib/notices";
import { cn } from "~/lib/cn";

/** The server-rendered form of a notice, shown where JavaScript (and so sonner) is not running. */
export function NoticeBanner({ notice, className }: { notice: Notice; className?: string }) {
  const isError = notice.variant === "error";
  return (
    <div
      role={isError ? "alert" : "status"}
      className={cn(
        "rounded-md border-l-4 p-4 text-sm",
        isError ? "border-destructive bg-destructive-soft text-destructive" : "border-success bg-success-soft text-success",
        className,
      )}
    >
      <p className="font-bold">{notice.title}</p>
      <p className="mt-1">{notice.description}</p>
    </div>
  );
}
