/** The texts of the account e-mails (plain text: readable everywhere, nothing to render wrong). */
export function verifyEmailText(siteName: string, url: string) {
  return {
    subject: `Verify your e-mail for ${siteName}`,
    text: `Welcome to ${siteName}!\n\nPlease confirm your e-mail address by opening this link:\n\n${url}\n\nThe link is valid for 24 hours. If you did not create an account, you can ignore this e-mail.\n`,
  };
}

export function resetPasswordText(siteName: string, url: string) {
  return {
    subject: `Reset your ${siteName} password`,
    text: `Someone (we hope you) asked to reset the password of your ${siteName} account.\n\nChoose a new password here:\n\n${url}\n\nThe link is valid for one hour and works once. If you did not ask for this, ignore this e-mail: your password stays as it is.\n`,
  };
}

/** Sent to the account's address after its password changed (ASVS 2.2.3: tell the owner). */
export function passwordChangedText(siteName: string, accountUrl: string) {
  return {
    subject: `Your ${siteName} password was changed`,
    text: `The password of your ${siteName} account was just changed, and every other device was signed out.\n\nIf this was you, there is nothing to do. If it was not, reset your password at once:\n\n${accountUrl}\n`,
  };
}
