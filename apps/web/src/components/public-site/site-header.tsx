import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { BrandMark } from '../brand-mark.tsx';
import { useAppConfigValue } from '../../lib/page-bootstrap.ts';
import { LanguageSwitcher } from './language-switcher.tsx';
import classes from './public-site.module.css';

interface MenuItem {
  label: string;
  href: string;
}

/** A disclosure menu: a button that opens a list of links. Escape closes it and returns focus to the button. */
function NavMenu({ label, items, onNavigate }: { label: string; items: MenuItem[]; onNavigate: () => void }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLLIElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      setOpen(false);
      buttonRef.current?.focus();
    }
  };

  return (
    <li
      className={classes.menu}
      ref={rootRef}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className={classes.menuButton}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => {
          setOpen((value) => !value);
        }}
      >
        {label}
        <span aria-hidden="true" className={classes.chevron}>
          ▾
        </span>
      </button>
      <ul id={id} className={classes.menuList} hidden={!open}>
        {items.map((item) => (
          <li key={item.label}>
            <a
              className={classes.menuLink}
              href={item.href}
              onClick={() => {
                setOpen(false);
                onNavigate();
              }}
            >
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </li>
  );
}

/** The public pages' top navigation: brand, dropdown menus, the language switcher and Platform Access. */
export function SiteHeader({ practiceName }: { practiceName: string }) {
  const { t } = useTranslation('public');
  const contactEmail = useAppConfigValue()?.contactEmail;
  const [mobileOpen, setMobileOpen] = useState(false);
  const close = () => {
    setMobileOpen(false);
  };

  return (
    <header className={classes.header}>
      <a className={classes.skip} href="#main-content">
        {t('skipToContent')}
      </a>
      <div className={classes.headerInner}>
        <a href="/" className={classes.brand}>
          <BrandMark size={30} />
          <span>{practiceName}</span>
        </a>
        <button
          type="button"
          className={classes.mobileToggle}
          aria-expanded={mobileOpen}
          aria-controls="site-nav"
          onClick={() => {
            setMobileOpen((value) => !value);
          }}
        >
          {t('nav.openMenu')}
        </button>
        <nav id="site-nav" aria-label={t('nav.label')} className={classes.nav} data-open={mobileOpen}>
          <ul className={classes.navList}>
            <NavMenu
              label={t('nav.patients')}
              onNavigate={close}
              items={[
                { label: t('nav.patientsAbout'), href: '/home' },
                // Every service of the patient request form is offered: the services are on the About page.
                { label: t('nav.patientsServices'), href: '/home#services' },
                { label: t('nav.patientsInsurance'), href: '/coming-soon#insurance' },
              ]}
            />
            <NavMenu
              label={t('nav.providers')}
              onNavigate={close}
              items={[
                { label: t('nav.providersCollaborate'), href: '/coming-soon#providers' },
                { label: t('nav.providersResearch'), href: '/coming-soon#research' },
              ]}
            />
            <li>
              <a className={classes.navLink} href="/home" onClick={close}>
                {t('nav.about')}
              </a>
            </li>
            <NavMenu
              label={t('nav.contact')}
              onNavigate={close}
              items={[
                { label: t('nav.patientLogin'), href: '/login' },
                { label: t('nav.providerLogin'), href: '/login' },
                ...(contactEmail
                  ? [{ label: t('nav.investors'), href: `mailto:${contactEmail}?subject=Investor%20inquiry` }]
                  : []),
              ]}
            />
          </ul>
          <LanguageSwitcher />
        </nav>
      </div>
    </header>
  );
}
