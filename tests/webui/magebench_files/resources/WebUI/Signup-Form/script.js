document.querySelectorAll('.plan').forEach((p) => {
  p.addEventListener('click', () => {
    document.querySelectorAll('.plan').forEach((q) => q.classList.remove('chosen'));
    p.classList.add('chosen');
  });
});
document.getElementById('code').addEventListener('dblclick', () => {
  document.getElementById('badge').textContent = 'Code copied';
});
document.getElementById('signup').addEventListener('submit', (e) => {
  e.preventDefault();
  const name = document.getElementById('name').value;
  document.getElementById('done').textContent = 'Welcome, ' + name + '!';
});
