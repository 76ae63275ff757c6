import { cva, type VariantProps } from "class-variance-authority";
import { Link, type LinkProps } from "react-router";
import { cn } from "~/lib/cn";

export const buttonVariants = cva(
  "inline-flex items-center justify-center gap-2 rounded-md font-semibold transition-colors disabled:pointer-events-none disabled:opacity-60 focus-visible:outline-3 focus-visible:outline-offset-2",
  {
    variants: {
      variant: {
        primary: "bg-accent text-accent-foreground hover:bg-accent-strong",
        navy: "bg-primary text-primary-foreground hover:bg-primary-soft",
        gold: "bg-gold text-gold-foreground hover:bg-gold-soft",
        outline: "border-2 border-primary text-primary hover:bg-primary hover:text-primary-foreground",
        outlineLight: "border-2 border-white text-white hover:bg-white hover:text-primary",
        ghost: "text-primary hover:bg-muted",
      },
      size: {
        sm: "h-9 px-3 text-sm",
        md: "h-11 px-5 text-base",
        lg: "h-13 px-7 text-lg",
      },
    },
    defaultVariants: { variant: "primary", size: "md" },
  },
);

type Variants = VariantProps<typeof buttonVariants>;

export function Button({ className, variant, size, ...props }: React.ComponentProps<"button"> & Variants) {
  return <button data-slot="button" className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}

export function ButtonLink({ className, variant, size, ...props }: LinkProps & Variants) {
  return <Link data-slot="button" className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}
