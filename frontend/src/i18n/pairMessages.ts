// Two-dose bookings' texts (the booking page, its confirmation, the manage page and the pair's
// problems), Slovak and English. A file of their own that messages.ts spreads into its tables: the
// catalogue there is long enough. Keys are part of MessageKey like any other.

export const pairSk = {
  pairLead: 'Táto služba má dve dávky: s týmto termínom vám zarezervujeme aj druhý, {min} – {max} dní po prvom ({from} – {to}), na tom istom mieste a v tom istom čase, v prvý deň s voľným miestom.',
  pairDay: 'Deň druhej dávky (nepovinné)',
  pairDayHint: 'Ak pole necháte prázdne, dostanete prvý voľný deň. Čas bude rovnaký ako pri prvej dávke ({time}).',
  errSecondDay: 'Vyberte deň od {from} do {to}, alebo pole nechajte prázdne.',
  secondDayFull: 'V tento deň o {time} nie je voľné miesto. Vyberte iný deň, alebo pole nechajte prázdne a dostanete prvý voľný.',
  secondDoseFull: 'Na druhú dávku nie je v jej intervale voľné miesto, preto sme nezarezervovali nič. Vyberte iný termín prvej dávky alebo iné miesto.',
  secondDoseOutside: 'Druhá dávka musí byť na tom istom mieste, v deň z intervalu po prvej dávke.',
  noSecondDose: 'Táto služba má len jeden termín: druhú dávku nemá.',
  pairFirstDoseFixed: 'Prvá dávka sa presunúť nedá. Presuňte druhú dávku, alebo zrušte oba termíny a rezervujte nové.',
  rescheduleAcrossWindow: 'Termín sa takto ďaleko presunúť nedá. Zrušte ho a rezervujte nový.',
  firstDose: '1. dávka',
  secondDose: '2. dávka',
  doseAt: '{day} o {time}',
  pairBooked: 'Zarezervovali sme oba termíny. Jeden kód platí pre oba: s ním ich zmeníte alebo zrušíte.',
  icsDoseSummary: '{dose}. dávka: {place}',
  pairNote: 'Rezervácia s dvoma dávkami: kód platí pre oba termíny. Prvú dávku presunúť nemožno, druhú áno, v rámci intervalu.',
  cancelPair: 'Zrušiť oba termíny',
  cancelPairConfirm: 'Naozaj zrušiť obe dávky? Oba termíny sa uvoľnia pre ostatných.',
  pairCancelled: 'Rezervácia {code} je zrušená, aj s druhou dávkou.',
  moveSecond: 'Presunúť druhú dávku',
  moveSecondTitle: 'Nový termín druhej dávky',
  moveSecondLead: 'Druhá dávka môže byť {min} – {max} dní po prvej ({from} – {to}), na tom istom mieste, v ktoromkoľvek čase.',
  secondDoseMoved: 'Druhá dávka je presunutá.',
  noSlotsInterval: 'V týchto dňoch nie sú žiadne termíny.',
};

export type PairKey = keyof typeof pairSk;

export const pairEn: Record<PairKey, string> = {
  pairLead: 'This service is given in two doses: booking this time also books the second, {min}–{max} days after the first ({from} – {to}), at the same place and time, on the earliest day with a free seat.',
  pairDay: 'Day of the second dose (optional)',
  pairDayHint: 'Leave it empty for the earliest free day. The time is the same as the first dose\'s ({time}).',
  errSecondDay: 'Choose a day from {from} to {to}, or leave it empty.',
  secondDayFull: 'No seat is free at {time} on this day. Choose another day, or leave it empty for the earliest free one.',
  secondDoseFull: 'No seat is free for the second dose in its interval, so nothing was booked. Choose another time for the first dose, or another place.',
  secondDoseOutside: 'The second dose must be at the same place, on a day within the interval after the first dose.',
  noSecondDose: 'This service has one appointment only: there is no second dose.',
  pairFirstDoseFixed: 'The first dose cannot be moved. Move the second dose, or cancel both appointments and book again.',
  rescheduleAcrossWindow: 'The appointment cannot be moved that far. Cancel it and book the new time instead.',
  firstDose: 'First dose',
  secondDose: 'Second dose',
  doseAt: '{day} at {time}',
  pairBooked: 'Both appointments are booked. One code serves both: use it to change or cancel them.',
  icsDoseSummary: 'Dose {dose}: {place}',
  pairNote: 'A two-dose booking: the code serves both appointments. The first dose cannot be moved; the second can, within its interval.',
  cancelPair: 'Cancel both appointments',
  cancelPairConfirm: 'Really cancel both doses? Both seats go back to others.',
  pairCancelled: 'Reservation {code} is cancelled, with its second dose.',
  moveSecond: 'Move the second dose',
  moveSecondTitle: 'New time for the second dose',
  moveSecondLead: 'The second dose may be {min}–{max} days after the first ({from} – {to}), at the same place, at any time of day.',
  secondDoseMoved: 'The second dose has been moved.',
  noSlotsInterval: 'There are no times on these days.',
};
