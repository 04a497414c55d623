import { useCallback, useRef, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { CrisisStrip, PublicPage } from '../../../components/public-site/index.ts';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { useAppConfigValue } from '../../../lib/page-bootstrap.ts';
import { telHref } from '../../../lib/tel-href.ts';
import classes from './landing-page.module.css';

const PHILOSOPHY = ['measure', 'person', 'evidence', 'together'] as const;
const DIFFERENCE = ['one', 'two', 'three', 'four'] as const;

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** `/`: the public landing page of the practice. */
export function LandingPage() {
  const { t } = useTranslation(['public', 'screens']);
  const config = useAppConfigValue();
  usePageTitle(t('screens:landing'));
  const parallaxRef = useRef<HTMLDivElement>(null);

  const onMouseMove = useCallback((event: MouseEvent<HTMLElement>) => {
    const layer = parallaxRef.current;
    if (!layer || prefersReducedMotion()) return;
    const rect = event.currentTarget.getBoundingClientRect();
    const x = (event.clientX - rect.left) / rect.width - 0.5;
    const y = (event.clientY - rect.top) / rect.height - 0.5;
    layer.style.setProperty('--px', `${(x * 24).toFixed(1)}px`);
    layer.style.setProperty('--py', `${(y * 16).toFixed(1)}px`);
  }, []);

  const scrollTo = (id: string) => {
    document.getElementById(id)?.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  };

  const contactEmail = config?.contactEmail;

  return (
    <PublicPage banner>
      <section className={classes.hero} onMouseMove={onMouseMove} aria-labelledby="hero-title">
        <div className={classes.parallax} ref={parallaxRef} aria-hidden="true">
          <span className={classes.ring} style={{ width: 420, height: 420, right: -80, top: -120 }} />
          <span className={classes.ring} style={{ width: 260, height: 260, right: 120, top: 140 }} />
          <span className={classes.ring} style={{ width: 160, height: 160, right: 40, bottom: -40 }} />
        </div>
        <div className={classes.heroInner}>
          <p className={`${classes.eyebrow} ${classes.reveal}`}>{t('hero.eyebrow')}</p>
          <h1 className={`${classes.heroTitle} ${classes.reveal}`} id="hero-title">
            {t('hero.title')}
          </h1>
          <p className={`${classes.heroBody} ${classes.revealLate}`}>{t('hero.body')}</p>
          <div className={`${classes.heroActions} ${classes.revealLate}`}>
            <button
              type="button"
              className={classes.heroButton}
              onClick={() => {
                scrollTo('philosophy');
              }}
            >
              {t('hero.learnMore')}
            </button>
            <button
              type="button"
              className={classes.heroButtonLight}
              onClick={() => {
                scrollTo('beta');
              }}
            >
              {t('hero.joinBeta')}
            </button>
            <a href="/dashboard" className={classes.heroButtonGhost}>
              {t('hero.platformAccess')}
            </a>
          </div>
        </div>
      </section>

      <CrisisStrip />

      <section className={classes.section} id="philosophy" aria-labelledby="philosophy-title">
        <h2 id="philosophy-title">{t('philosophy.title')}</h2>
        <p className={classes.sectionIntro}>{t('philosophy.intro')}</p>
        <ul className={classes.cards}>
          {PHILOSOPHY.map((key) => (
            <li key={key} className={classes.card}>
              <h3>{t(`philosophy.cards.${key}.title`)}</h3>
              <p>{t(`philosophy.cards.${key}.body`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className={classes.section} id="difference" aria-labelledby="difference-title">
        <h2 id="difference-title">{t('difference.title')}</h2>
        <ol className={classes.numbered}>
          {DIFFERENCE.map((key, index) => (
            <li key={key}>
              <span className={classes.number} aria-hidden="true">
                {index + 1}
              </span>
              <div>
                <h3>{t(`difference.items.${key}.title`)}</h3>
                <p>{t(`difference.items.${key}.body`)}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section className={classes.section} id="beta" aria-labelledby="beta-title">
        <div className={classes.panel}>
          <h2 id="beta-title">{t('beta.title')}</h2>
          <p>{t('beta.body')}</p>
          {contactEmail ? (
            <p>
              <a
                className={classes.inlineLink}
                href={`mailto:${contactEmail}?subject=${encodeURIComponent(t('beta.subject'))}`}
              >
                {t('beta.cta')}
              </a>
            </p>
          ) : null}
        </div>
      </section>

      <section className={classes.section} id="contact" aria-labelledby="contact-title">
        <h2 id="contact-title">{t('contact.title')}</h2>
        <p className={classes.sectionIntro}>{t('contact.body')}</p>
        <div className={classes.contactGrid}>
          <div className={classes.panel}>
            {contactEmail ? (
              <p>
                {t('contact.email')}:{' '}
                <a className={classes.inlineLink} href={`mailto:${contactEmail}`}>
                  {contactEmail}
                </a>
              </p>
            ) : null}
            {config?.clinicPhone ? (
              <p>
                {t('contact.phone')}:{' '}
                <a className={classes.inlineLink} href={telHref(config.clinicPhone)}>
                  {config.clinicPhone}
                </a>
              </p>
            ) : null}
          </div>
          <div className={classes.panel}>
            <p>{t('contact.requestAccessBody')}</p>
            <p>
              <a className={classes.inlineLink} href="/login">
                {t('contact.requestAccess')}
              </a>
            </p>
          </div>
        </div>
      </section>
    </PublicPage>
  );
}
