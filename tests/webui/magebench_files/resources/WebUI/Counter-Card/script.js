const count = document.getElementById('count');
document.querySelector('.add').addEventListener('click', () => {
  setTimeout(() => { count.textContent = String(Number(count.textContent) + 1); }, 500);
});
