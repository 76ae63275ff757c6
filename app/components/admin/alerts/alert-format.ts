export const inputClass = "block w-full rounded-md border border-input bg-background px-3 py-2 text-base";

export const usd = (amount: number) => amount.toLocaleString("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });
