/** The front door of src/favorites/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { favoriteIds, isFavorite, setFavorite } from './service.ts'
