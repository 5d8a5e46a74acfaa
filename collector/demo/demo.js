// The demo site's own script: what a shop page would do with the tracker's API.
function whenTracker(then) {
  if (window.RingTrail) then(window.RingTrail);
  else setTimeout(() => whenTracker(then), 50);
}
whenTracker((tracker) =>
  tracker.ready.then(() => {
    document.getElementById('status').textContent = `visit ${tracker.visitId()}`;
  }),
);
document.getElementById('ajax')?.addEventListener('click', () => {
  document.getElementById('late').textContent = 'After-sales service: 09 87 65 43 21';
});
document.getElementById('spa')?.addEventListener('click', () => {
  history.pushState({}, '', '/demo/?page=2');
  document.title = 'Acme Plumbing - page 2';
  document.querySelector('h1').textContent = 'Acme Plumbing - page 2';
});
